import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { ErrorBody } from '../domain/errors';
import {
  createMailer,
  type Mailer,
  type MailTransport,
  outboxOnlyTransport,
  smtpTransport,
} from './adapters/mailer';
import {
  createPaymentGateway,
  type PaymentConfig,
  paymentConfigFor,
  SANDBOX_GATEWAY_PREFIX,
} from './adapters/payments';
import type { PaymentGateway } from './adapters/payments/payment-gateway';
import { sandboxTokenizerRoutes } from './adapters/payments/sandbox-gateway';
import type { Config } from './config';
import type { Database } from './db/client';
import { type Clock, systemClock } from './lib/clock';
import { refuseControlCharacters } from './lib/control-characters';
import { documentsKey } from './lib/document-store';
import { errorSummary, isConnectionLost } from './lib/failures';
import { HttpError } from './lib/http-error';
import { linkSecret } from './lib/link-tokens';
import { refuseRawPaymentNumbers } from './lib/raw-payment-numbers';
import { serializerCompiler } from './lib/serializer';
import { authRoutes } from './modules/auth/auth-routes';
import { clientRoutes } from './modules/clients/client-routes';
import { formRoutes } from './modules/forms/form-routes';
import { paymentRoutes } from './modules/payments/payment-routes';
import { publicPaymentRoutes } from './modules/payments/public-payment-routes';
import { healthRoutes, outboxRoutes, siteRoutes } from './modules/system/system-routes';
import { createSessionService, type SessionService } from './plugins/sessions';

export interface AppDeps {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  sessions: SessionService;
  gateway: PaymentGateway;
  paymentConfig: PaymentConfig;
  linkSecret: Buffer;
  documentsKey: Buffer;
  /** The run-once lease (config.leaseMs), where services expect it. */
  leaseMs: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the app was built with, for the background jobs that run beside it. */
    deps: AppDeps;
  }
}

export interface BuildAppOptions {
  config: Config;
  db: Database;
  clock?: Clock;
  /** Where mail leaves: SMTP_URL's server, or the outbox alone (tests may pass their own). */
  mailTransport?: MailTransport;
  gateway?: PaymentGateway;
  /** Where the built web app is; when absent or not built, only the API is served. */
  webRoot?: string | null;
  logger?: FastifyServerOptions['logger'];
}

export const defaultWebRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

// The query string can carry personal data (password recovery asks by e-mail and birth date):
// logs keep the path only, and never a cookie.
const requestSerializer = (request: { method: string; url: string; id: string }) => ({
  method: request.method,
  path: request.url.split('?')[0],
  id: request.id,
});

/**
 * The logger: paths without query strings, no cookies, and every `err` reduced to its type, code
 * and stack frames (`errorSummary`), never its message. `stream` lets a test read what is logged.
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }) {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: { req: requestSerializer, err: errorSummary },
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.code'],
      remove: true,
    },
  };
}

const API_BODY_LIMIT = 64 * 1024;
const RETRY_AFTER_SECONDS = 2;
// A hashed asset's name changes with its content: browsers may keep it for a year unasked.
const IMMUTABLE_ASSET = 'public, max-age=31536000, immutable';
const ACCEPT_JS_ORIGINS = ['https://js.authorize.net', 'https://jstest.authorize.net'];
const ACCEPT_API_ORIGINS = ['https://api2.authorize.net', 'https://apitest.authorize.net'];

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustProxy,
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const clock = options.clock ?? systemClock;
  const documentsKeyBytes = documentsKey(config.dataDir, config.documentsKey);
  const mailer = createMailer({
    db,
    clock,
    documentsKey: documentsKeyBytes,
    transport:
      options.mailTransport ??
      (config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : outboxOnlyTransport(app.log)),
    from: config.mailFrom,
    log: app.log,
  });
  const sessions = createSessionService(db, clock, config);
  const gateway = options.gateway ?? createPaymentGateway(config, db, clock);
  const paymentConfig = paymentConfigFor(config);
  const deps: AppDeps = {
    config,
    db,
    clock,
    mailer,
    sessions,
    gateway,
    paymentConfig,
    linkSecret: linkSecret(config.dataDir, config.linkSecret),
    documentsKey: documentsKeyBytes,
    leaseMs: config.leaseMs,
  };
  app.decorate('deps', deps);
  app.addHook('onClose', async () => {
    await mailer.close();
  });

  app.decorateRequest('session', null);

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Accept.js (Authorize.Net) is the one outside script, and only with that gateway.
        scriptSrc: ["'self'", ...(config.payments.gateway === 'authorize-net' ? ACCEPT_JS_ORIGINS : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(config.payments.gateway === 'authorize-net' ? ACCEPT_API_ORIGINS : [])],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    hsts: config.secureCookies,
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Client Portal API',
        version: '1.0.0',
        description: 'The calls of the client and physician portal.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, body: ErrorBody) =>
      reply.code(status).header('cache-control', 'no-store').send(body);
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return send(error.statusCode, {
        error: error.message,
        code: error.code,
        ...(error.fields ? { fields: error.fields } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.split('/')[1] || '_';
        if (!(key in fields)) fields[key] = issue.message ?? 'Invalid value';
      }
      const first = Object.values(fields)[0] ?? 'The request is not valid.';
      return send(400, { error: first, code: 'VALIDATION', fields });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return send(413, { error: 'The request is too large.', code: 'PAYLOAD_TOO_LARGE' });
    if (status >= 400 && status < 500) {
      return send(status, { error: 'The request could not be read.', code: 'VALIDATION' });
    }
    // The error itself is never logged: its message may hold a query's parameters (personal data).
    const route = request.routeOptions.url ?? request.url.split('?')[0];
    const { type, errorCode } = errorSummary(error);
    if (isConnectionLost(error)) {
      request.log.warn({ route, errorType: type, errorCode }, 'database connection lost');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return send(503, {
        error: 'The service is briefly unavailable. Please try again in a moment.',
        code: 'SERVICE_UNAVAILABLE',
        requestId: request.id,
      });
    }
    request.log.error({ route, errorType: type, errorCode }, 'request failed');
    return send(500, {
      error: 'Something went wrong. Please try again.',
      code: 'INTERNAL',
      requestId: request.id,
    });
  });

  // Cross-site form posts are refused: a state-changing API call must come from our own origin.
  app.addHook('onRequest', async (request) => {
    const guarded = request.url.startsWith('/api/') || request.url.startsWith(SANDBOX_GATEWAY_PREFIX);
    if (request.method === 'GET' || request.method === 'HEAD' || !guarded) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {}
    if (originHost !== request.headers.host && origin !== config.publicUrl) {
      throw new HttpError(403, 'FORBIDDEN_ORIGIN', 'This request came from another site and was refused.');
    }
  });
  // No text holds a control character, and no API call takes a card number, CVV or bank account
  // number (they go to the gateway only): checked here, before validation, for every call.
  app.addHook('preValidation', async (request) => {
    const api = request.url.startsWith('/api/');
    if (api || request.url.startsWith(SANDBOX_GATEWAY_PREFIX)) {
      refuseControlCharacters(request.body, request.query, request.params);
    }
    if (api) refuseRawPaymentNumbers(request.body, request.query);
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
  });

  await app.register(healthRoutes, { ...deps, prefix: '/api' });
  await app.register(siteRoutes, { ...deps, prefix: '/api/pay' });
  await app.register(authRoutes, { ...deps, prefix: '/api/pay' });
  await app.register(clientRoutes, { ...deps, prefix: '/api/pay' });
  await app.register(paymentRoutes, { ...deps, prefix: '/api/pay' });
  await app.register(publicPaymentRoutes, { ...deps, prefix: '/api/pay' });
  await app.register(formRoutes, { ...deps, prefix: '/api/pay' });
  if (config.payments.gateway === 'sandbox') {
    await app.register(sandboxTokenizerRoutes(db, clock), { prefix: SANDBOX_GATEWAY_PREFIX });
  }
  if (config.devOutbox && mailer.kind === 'outbox') await app.register(outboxRoutes, deps);

  const webRoot = options.webRoot === undefined ? defaultWebRoot : options.webRoot;
  const hasWeb = webRoot !== null && fs.existsSync(path.join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The build writes a .br and a .gz beside each hashed asset (vite.config.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const hashed = path.relative(webRoot, filePath).split(path.sep)[0] === 'assets';
        reply.header('cache-control', hashed ? IMMUTABLE_ASSET : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // A missing hashed asset is a 404, not the page: a browser would run the page as a script.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/assets/');
    if (isPage && hasWeb) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile('index.html');
    }
    return reply.code(404).send({ error: 'Not found', code: 'NOT_FOUND' } satisfies ErrorBody);
  });

  return app;
}
