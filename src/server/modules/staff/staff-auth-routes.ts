import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authMessages, authPolicy, newPasswordSchema } from '../../../domain/auth';
import { errorBodySchema } from '../../../domain/errors';
import {
  changeInitialPasswordRequestSchema,
  enrolmentResponseSchema,
  enrolTotpResponseSchema,
  recoveryCodeRequestSchema,
  staffLoginRequestSchema,
  staffLoginResponseSchema,
  staffMessages,
  staffNextStepSchema,
  staffSessionResponseSchema,
  totpCodeRequestSchema,
} from '../../../domain/staff';
import type { AppDeps } from '../../app-deps';
import { staffAccounts } from '../../db/schema';
import { HttpError, notFound, unauthenticated } from '../../lib/http-error';
import { countRateLimits, enforceRateLimits, releaseRateLimitHit } from '../../lib/rate-limit';
import { hashSecret, isCommonPassword, verifySecret } from '../../lib/secrets';
import { sessionOf } from '../../plugins/sessions';
import { countSignInFailure, signIn, signInLocked } from '../auth/auth-service';
import {
  completeEnrolment,
  enrolmentOffer,
  findStaff,
  invalidCode,
  invalidRecoveryCode,
  nextStepOf,
  type StaffRow,
  spendRecoveryCode,
  spendTotpCode,
  staffKind,
  staffMemberOf,
} from './staff-accounts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

function perIp(deps: AppDeps, bucket: string, ip: string) {
  return enforceRateLimits(
    deps.db,
    deps.clock.now(),
    [{ key: `${bucket}:ip:${ip}`, limit: deps.config.rateLimits.loginPerIp, windowMs: FIFTEEN_MINUTES }],
    authMessages.tooManyAttempts,
  );
}

/** Step 1 (public): e-mail and password; the session is half until the second factor passes. */
export const staffLoginRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, mailer, sessions } = deps;
  app.post(
    '/login',
    {
      schema: {
        summary:
          'Staff sign-in, step 1: e-mail and password; starts a half session that needs the second factor',
        tags: ['staff'],
        body: staffLoginRequestSchema,
        response: { 200: staffLoginResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await perIp(deps, 'staff-login', request.ip);
      const account = await signIn(
        { db, clock, mailer, log: app.log },
        staffKind,
        request.body.email,
        request.body.password,
      );
      const staff = await findStaff(db, account.id);
      if (!staff) throw unauthenticated();
      await sessions.end(request, reply);
      await sessions.start(reply, { role: 'staff_pending', staffId: staff.id });
      return { next: nextStepOf(staff) };
    },
  );
};

/** Step 2 (a half session only): the TOTP code, a recovery code, or the enrolment of first sign-in. */
export const staffSecondFactorRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, clock, mailer, sessions, documentsKey, linkSecret } = deps;
  const serviceDeps = { db, clock, mailer, log: app.log };

  /**
   * The half session's account, when it may still try (not disabled, not locked). Until a member
   * created by an admin has set their own password, only that step answers (the rest is 404).
   */
  async function pendingAccount(request: FastifyRequest, reply: FastifyReply, passwordStep = false) {
    const session = sessionOf(request, 'staff_pending');
    await perIp(deps, 'staff-2fa', request.ip);
    const staff = await findStaff(db, session.staffId);
    if (
      !staff ||
      staff.disabledAt ||
      (await signInLocked(db, staffKind.loginKey(staff.email), clock.now()))
    ) {
      await sessions.end(request, reply);
      throw unauthenticated(staffKind.loginFailed);
    }
    if (staff.mustChangePassword !== passwordStep) throw notFound();
    return staff;
  }

  /**
   * Judges one code of the account's second factor. The attempt is counted before the code is
   * checked, in one statement, so at most 10 codes per account are judged in 15 minutes however
   * many arrive at once (and signing in with the password again does not reset it); past that the
   * half session ends, as for a locked account. A right code gives its count back; a wrong one
   * also counts toward the account's lock, and the tenth ends the half session.
   */
  async function judgeCode<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    staff: { id: string; email: string },
    judge: () => Promise<T | null>,
    refusal: () => Error,
  ): Promise<T> {
    const budgetKey = `staff-2fa:account:${staff.id}`;
    const claim = await countRateLimits(db, clock.now(), [
      { key: budgetKey, limit: authPolicy.lockoutFailures, windowMs: authPolicy.lockoutMs },
    ]);
    if (!claim.allowed) {
      await sessions.end(request, reply);
      throw unauthenticated(staffKind.loginFailed);
    }
    const outcome = await judge();
    if (outcome !== null) {
      await releaseRateLimitHit(db, budgetKey);
      return outcome;
    }
    const loginKey = staffKind.loginKey(staff.email);
    const locked = await countSignInFailure(serviceDeps, staffKind, loginKey, staff.email);
    if (locked) await sessions.end(request, reply);
    throw refusal();
  }

  /** Both factors passed: a new session id, now a whole staff session. */
  async function promote(request: FastifyRequest, reply: FastifyReply, staffId: string) {
    const staff = await findStaff(db, staffId);
    if (!staff) throw unauthenticated();
    await sessions.end(request, reply);
    await sessions.start(reply, { role: 'staff', staffId: staff.id, level: staff.level });
  }

  /** Sign-in's second step for an enrolled member: one code judged (`spend`), then the whole session. */
  async function secondStep(
    request: FastifyRequest,
    reply: FastifyReply,
    spend: (staff: StaffRow) => Promise<boolean>,
    refusal: () => Error,
  ) {
    const staff = await pendingAccount(request, reply);
    if (!staff.totpSecretSealed) throw notFound();
    await judgeCode(request, reply, staff, async () => (await spend(staff)) || null, refusal);
    await promote(request, reply, staff.id);
    return { signedIn: true as const };
  }

  app.post(
    '/change_initial_password',
    {
      schema: {
        summary:
          'First sign-in of a member an admin created: sets their own password (the client password rules) before enrolment; nothing else answers until then',
        tags: ['staff'],
        body: changeInitialPasswordRequestSchema(newPasswordSchema(isCommonPassword)),
        response: { 200: z.object({ next: staffNextStepSchema }), ...errors },
      },
    },
    async (request, reply) => {
      const staff = await pendingAccount(request, reply, true);
      if (await verifySecret(staff.passwordHash, request.body.password)) {
        throw new HttpError('VALIDATION', staffMessages.samePassword, {
          password: staffMessages.samePassword,
        });
      }
      const [changed] = await db
        .update(staffAccounts)
        .set({ passwordHash: await hashSecret(request.body.password), mustChangePassword: false })
        .where(and(eq(staffAccounts.id, staff.id), eq(staffAccounts.mustChangePassword, true)))
        .returning();
      if (!changed) throw notFound();
      return { next: nextStepOf(changed) };
    },
  );

  app.post(
    '/verify_totp',
    {
      schema: {
        summary: 'Staff sign-in, step 2: the current TOTP code (each code is good once)',
        tags: ['staff'],
        body: totpCodeRequestSchema,
        response: { 200: z.object({ signedIn: z.literal(true) }), ...errors },
      },
    },
    (request, reply) =>
      secondStep(
        request,
        reply,
        (staff) => spendTotpCode(db, documentsKey, staff, request.body.code, clock.now()),
        invalidCode,
      ),
  );

  app.post(
    '/verify_recovery_code',
    {
      schema: {
        summary: 'Staff sign-in, step 2 without the authenticator: one recovery code, good once',
        tags: ['staff'],
        body: recoveryCodeRequestSchema,
        response: { 200: z.object({ signedIn: z.literal(true) }), ...errors },
      },
    },
    (request, reply) =>
      secondStep(
        request,
        reply,
        (staff) => spendRecoveryCode(db, linkSecret, staff.id, request.body.code, clock.now()),
        invalidRecoveryCode,
      ),
  );

  app.get(
    '/enrolment',
    {
      schema: {
        summary:
          'First sign-in: the TOTP secret offered to a member not yet enrolled, as a QR code and as text',
        tags: ['staff'],
        response: { 200: enrolmentResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const staff = await pendingAccount(request, reply);
      if (staff.totpSecretSealed) throw notFound();
      return enrolmentOffer(db, documentsKey, staff);
    },
  );

  app.post(
    '/enrol_totp',
    {
      schema: {
        summary:
          'First sign-in: a code from the offered secret confirms the enrolment; answers the ten recovery codes, once',
        tags: ['staff'],
        body: totpCodeRequestSchema,
        response: { 200: enrolTotpResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const staff = await pendingAccount(request, reply);
      if (staff.totpSecretSealed || !staff.pendingTotpSecretSealed) throw notFound();
      const codes = await judgeCode(
        request,
        reply,
        staff,
        () => completeEnrolment(db, { documentsKey, linkSecret }, staff, request.body.code, clock.now()),
        invalidCode,
      );
      await promote(request, reply, staff.id);
      return { recoveryCodes: codes };
    },
  );
};

/** For a staff session, half or whole: who it is, and sign-out. */
export const staffSessionRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, sessions, config }) => {
  app.get(
    '/session',
    {
      schema: {
        summary: 'The staff session of this browser: signed in, or waiting for the second factor',
        tags: ['staff'],
        response: { 200: staffSessionResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff', 'staff_pending');
      const staff = await findStaff(db, session.staffId);
      if (!staff) throw unauthenticated();
      if (session.role === 'staff_pending') {
        return { stage: 'second-factor' as const, next: nextStepOf(staff) };
      }
      return {
        stage: 'signed-in' as const,
        staff: staffMemberOf(staff),
        idleTimeoutMs: config.idleSignOutMs.staff,
      };
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        summary: 'Ends the staff session of this browser',
        tags: ['staff'],
        response: { 200: z.object({ message: z.string() }), 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      await sessions.end(request, reply);
      return { message: 'Signed out' };
    },
  );
};
