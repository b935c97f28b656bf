import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authMessages,
  loginRequestSchema,
  loginResponseSchema,
  messageResponseSchema,
  otpRequestSchema,
  otpResponseSchema,
  physicianLoginRequestSchema,
  physicianLoginResponseSchema,
  physicianOtpRequestSchema,
  sessionResponseSchema,
  updatePasswordRequestSchema,
  updatePhysicianPasswordRequestSchema,
} from '../../../domain/auth';
import { todayFor } from '../../../domain/client';
import { errorBodySchema } from '../../../domain/errors';
import type { AppDeps } from '../../app-deps';
import { enforceRateLimits } from '../../lib/rate-limit';
import { isCommonPassword } from '../../lib/secrets';
import {
  clientAccounts,
  physicianAccounts,
  requestPasswordCode,
  resetPassword,
  signIn,
} from './auth-service';
import { describeSession } from './session-info';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const otpResponses = {
  200: otpResponseSchema,
  400: errorBodySchema,
  403: errorBodySchema,
  429: errorBodySchema,
};

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, config, sessions, mailer } = deps;
  const today = () => todayFor(clock.now());
  const serviceDeps = { db, clock, mailer, log: app.log };

  const limitPerIp = (bucket: string, ip: string, limit: number) =>
    enforceRateLimits(
      db,
      clock.now(),
      [{ key: `${bucket}:ip:${ip}`, limit, windowMs: FIFTEEN_MINUTES }],
      authMessages.tooManyAttempts,
    );

  app.post(
    '/login',
    {
      schema: {
        summary: 'Signs a client in with Client ID and password; sets the session cookie',
        tags: ['session'],
        body: loginRequestSchema,
        response: {
          200: loginResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      await limitPerIp('login', request.ip, config.rateLimits.loginPerIp);
      const client = await signIn(serviceDeps, clientAccounts, request.body.username, request.body.password);
      // A new session id at every sign-in; any session this browser had before is ended.
      await sessions.end(request, reply);
      await sessions.start(reply, { role: 'client', clientId: client.id });
      return {
        result: {
          login: true as const,
          message: 'Signed in',
          id: client.id,
          clientACTId: client.actId,
          clientLastName: client.lastName,
        },
      };
    },
  );

  app.post(
    '/physician_login',
    {
      schema: {
        summary: 'Signs a physician in with Physician ID and password; sets the session cookie',
        tags: ['session'],
        body: physicianLoginRequestSchema,
        response: {
          200: physicianLoginResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      await limitPerIp('login', request.ip, config.rateLimits.loginPerIp);
      const physician = await signIn(
        serviceDeps,
        physicianAccounts,
        request.body.username,
        request.body.password,
      );
      await sessions.end(request, reply);
      await sessions.start(reply, { role: 'physician', physicianId: physician.id });
      return {
        result: {
          login: true as const,
          message: 'Signed in',
          id: physician.id,
          physicianACTId: physician.actId,
          physicianLastName: physician.lastName,
        },
      };
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        summary: 'Ends the session of this browser, whatever its role',
        tags: ['session'],
        response: { 200: messageResponseSchema },
      },
    },
    async (request, reply) => {
      await sessions.end(request, reply);
      return { message: 'Signed out' };
    },
  );

  app.get(
    '/session',
    {
      schema: {
        summary: 'Who is signed in; reading it does not extend the session',
        tags: ['session'],
        response: { 200: sessionResponseSchema },
      },
    },
    async (request) => {
      const session = await sessions.load(request, { touch: false });
      return (
        (session && (await describeSession(db, session, config.idleSignOutMs.portal))) ?? {
          signedIn: false as const,
        }
      );
    },
  );

  app.get(
    '/get_otp',
    {
      config: { sameOriginOnly: true },
      schema: {
        summary:
          'Password recovery, step 1: e-mails a 6-digit code to the address of record when the details match',
        tags: ['password recovery'],
        querystring: otpRequestSchema(today),
        response: otpResponses,
      },
    },
    async (request) => {
      await limitPerIp('recovery', request.ip, config.rateLimits.recoveryPerIp);
      await requestPasswordCode(serviceDeps, clientAccounts, request.query);
      return { otpSent: true as const, message: authMessages.otpSent };
    },
  );

  app.post(
    '/update_Password',
    {
      schema: {
        summary: 'Password recovery, step 2: the code and the new password; ends every session of the client',
        tags: ['password recovery'],
        body: updatePasswordRequestSchema(today, isCommonPassword),
        response: { 200: messageResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await limitPerIp('recovery', request.ip, config.rateLimits.recoveryPerIp);
      const clientId = await resetPassword(serviceDeps, clientAccounts, request.body);
      await sessions.endAllFor({ role: 'client', clientId });
      return { message: authMessages.passwordUpdated };
    },
  );

  app.get(
    '/get_physician_otp',
    {
      config: { sameOriginOnly: true },
      schema: {
        summary:
          "Physician password recovery, step 1: e-mails a 6-digit code to the physician's address of record when the Physician ID and e-mail match",
        tags: ['password recovery'],
        querystring: physicianOtpRequestSchema,
        response: otpResponses,
      },
    },
    async (request) => {
      await limitPerIp('recovery', request.ip, config.rateLimits.recoveryPerIp);
      await requestPasswordCode(serviceDeps, physicianAccounts, request.query);
      return { otpSent: true as const, message: authMessages.otpSent };
    },
  );

  app.post(
    '/update_physician_password',
    {
      schema: {
        summary:
          'Physician password recovery, step 2: the code and the new password; ends every session of the physician',
        tags: ['password recovery'],
        body: updatePhysicianPasswordRequestSchema(isCommonPassword),
        response: { 200: messageResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await limitPerIp('recovery', request.ip, config.rateLimits.recoveryPerIp);
      const physicianId = await resetPassword(serviceDeps, physicianAccounts, request.body);
      await sessions.endAllFor({ role: 'physician', physicianId });
      return { message: authMessages.passwordUpdated };
    },
  );
};
