import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type ErrorBody, errorStatus } from '../domain/errors';
import { createCarrier } from './adapters/carrier';
import type { CarrierAdapter } from './adapters/carrier/carrier-adapter';
import { createMailer, type MailTransport, outboxOnlyTransport, smtpTransport } from './adapters/mailer';
import { createPaymentGateway, paymentConfigFor, SANDBOX_GATEWAY_PREFIX } from './adapters/payments';
import type { PaymentGateway } from './adapters/payments/payment-gateway';
import { sandboxTokenizerRoutes } from './adapters/payments/sandbox-gateway';
import {
  createSmsSender,
  offlineSmsTransport,
  type SmsTransport,
  twilioSmsTransport,
} from './adapters/sms/sms-adapter';
import type { AppDeps } from './app-deps';
import type { Config } from './config';
import type { Database } from './db/client';
import { recoveriesByKind } from './jobs/reconcile';
import { type Clock, systemClock } from './lib/clock';
import { refuseControlCharacters } from './lib/control-characters';
import { documentsKey } from './lib/document-store';
import { errorSummary } from './lib/failures';
import { linkSecret } from './lib/link-tokens';
import { pageHtmlFor } from './lib/page-html';
import { refuseRawPaymentNumbers } from './lib/raw-payment-numbers';
import { serializerCompiler } from './lib/serializer';
import { authRoutes } from './modules/auth/auth-routes';
import { clientRoutes } from './modules/clients/client-routes';
import { formDraftRoutes } from './modules/forms/form-draft-routes';
import { formRoutes } from './modules/forms/form-routes';
import { physicianConsentRoutes } from './modules/forms/physician-consent-routes';
import { physicianDiseaseRoutes } from './modules/forms/physician-disease-routes';
import { sampleRoutes, welcomeRoutes } from './modules/initial-processing/sample-routes';
import { newbornAgreementRoutes } from './modules/newborn-agreement/newborn-agreement-routes';
import { staffNewbornAgreementRoutes } from './modules/newborn-agreement/staff-newborn-agreement-routes';
import {
  cellRequestObjectionRoutes,
  cellRequestRoutes,
  deliveryConfirmationRoutes,
} from './modules/ordering/cell-request-routes';
import { orderingRoutes } from './modules/ordering/ordering-routes';
import {
  staffPlanOrderReadRoutes,
  staffPlanRefundRoutes,
} from './modules/ordering/storage-plan-refund-routes';
import { storagePlanRoutes } from './modules/ordering/storage-plan-routes';
import {
  staffBillingAdminRoutes,
  staffBillingRoutes,
  storageRenewalRoutes,
} from './modules/payments/billing-routes';
import {
  clientPaymentRoutes,
  paymentRoutes,
  physicianPaymentRoutes,
} from './modules/payments/payment-routes';
import { publicPaymentRoutes } from './modules/payments/public-payment-routes';
import { drawReceipt } from './modules/payments/receipts';
import { staffPaymentReadRoutes, staffRefundRoutes } from './modules/payments/refund-routes';
import { physicianRoutes } from './modules/physicians/physician-routes';
import { staffQueueRoutes } from './modules/staff/queues';
import { staffAdminRoutes } from './modules/staff/staff-admin-routes';
import {
  staffLoginRoutes,
  staffSecondFactorRoutes,
  staffSessionRoutes,
} from './modules/staff/staff-auth-routes';
import { staffClientRoutes } from './modules/staff/staff-client-routes';
import { staffLinkRoutes } from './modules/staff/staff-link-routes';
import { healthRoutes, outboxRoutes, siteRoutes, smsOutboxRoutes } from './modules/system/system-routes';
import { createAuditTrail } from './plugins/audit';
import { errorHandlerPlugin } from './plugins/error-handler';
import { openApiPlugin } from './plugins/openapi';
import { protectedScope, publicScope } from './plugins/scopes';
import { securityPlugin } from './plugins/security';
import { createSessionService, sessionsPlugin } from './plugins/sessions';

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
  carrier?: CarrierAdapter;
  smsTransport?: SmsTransport;
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
// A hashed asset's name changes with its content: browsers may keep it for a year unasked.
const IMMUTABLE_ASSET = 'public, max-age=31536000, immutable';

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: API_BODY_LIMIT,
    trustProxy: config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    // One line per request at debug, by route (never the address with its query): a walk through
    // the portal at the default level logs what needs attention, not every file and call.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unknown',
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
  });

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
    drawReceipt: (paymentId) => drawReceipt(db, paymentId, clock.now()),
  });
  const sessions = createSessionService(db, clock, config);
  const gateway = options.gateway ?? createPaymentGateway(config, db, clock);
  const paymentConfig = paymentConfigFor(config);
  const carrier = options.carrier ?? createCarrier(config);
  const sms = createSmsSender({
    db,
    clock,
    log: app.log,
    transport:
      options.smsTransport ??
      (config.sms.kind === 'twilio' ? twilioSmsTransport(config.sms) : offlineSmsTransport()),
  });
  const deps: AppDeps = {
    config,
    db,
    clock,
    mailer,
    sessions,
    gateway,
    carrier,
    sms,
    paymentConfig,
    linkSecret: linkSecret(config.dataDir, config.linkSecret),
    documentsKey: documentsKeyBytes,
    leaseMs: config.leaseMs,
  };
  app.decorate('deps', deps);
  app.addHook('onClose', async () => {
    await mailer.close();
  });

  await sessionsPlugin(app);
  await securityPlugin(app, config);
  await openApiPlugin(app);
  errorHandlerPlugin(app);

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

  const api = { ...deps, prefix: '/api/pay' };
  const staffApi = { ...deps, prefix: '/api/staff' };
  // Every scope that reads or changes a client's data records it through this one trail.
  const audit = createAuditTrail(db, clock);
  await app.register(healthRoutes, { ...deps, prefix: '/api' });
  await app.register(
    publicScope(
      async (scope) => {
        await scope.register(siteRoutes, api);
        await scope.register(authRoutes, api);
        await scope.register(publicPaymentRoutes, api);
        await scope.register(newbornAgreementRoutes, api);
        await scope.register(deliveryConfirmationRoutes, api);
        await scope.register(cellRequestObjectionRoutes, api);
        await scope.register(welcomeRoutes, api);
        await scope.register(staffLoginRoutes, staffApi);
      },
      { audit },
    ),
  );
  // Routes about a client, for the client themselves or a physician acting for them.
  await app.register(
    protectedScope(
      sessions,
      ['client', 'physician'],
      async (scope) => {
        await scope.register(clientRoutes, api);
        await scope.register(paymentRoutes, api);
        await scope.register(orderingRoutes, api);
        await scope.register(cellRequestRoutes, api);
        await scope.register(storagePlanRoutes, api);
        await scope.register(formDraftRoutes, api);
      },
      { audit },
    ),
  );
  // The client's own forms and payment method: a physician has their own routes for these.
  await app.register(
    protectedScope(
      sessions,
      ['client'],
      async (scope) => {
        await scope.register(clientPaymentRoutes, api);
        await scope.register(storageRenewalRoutes, api);
        await scope.register(formRoutes, api);
      },
      { audit },
    ),
  );
  await app.register(
    protectedScope(
      sessions,
      ['physician'],
      async (scope) => {
        await scope.register(physicianRoutes, api);
        await scope.register(physicianConsentRoutes, api);
        await scope.register(sampleRoutes, api);
        await scope.register(physicianDiseaseRoutes, api);
        await scope.register(physicianPaymentRoutes, api);
      },
      { audit },
    ),
  );
  // The back office: a half staff session (password passed) reaches only the second factor;
  // everything else needs both factors, and the admin scope the admin level.
  await app.register(
    protectedScope(sessions, ['staff_pending'], async (scope) => {
      await scope.register(staffSecondFactorRoutes, staffApi);
    }),
  );
  await app.register(
    protectedScope(sessions, ['staff_pending', 'staff'], async (scope) => {
      await scope.register(staffSessionRoutes, staffApi);
    }),
  );
  await app.register(
    protectedScope(
      sessions,
      ['staff'],
      async (scope) => {
        await scope.register(staffClientRoutes, staffApi);
        // The sweep's recoveries, so that settling a payment in doubt recovers it as the sweep would.
        await scope.register(staffQueueRoutes, {
          ...staffApi,
          recoveriesByKind: (log) => recoveriesByKind(deps, log),
        });
        await scope.register(staffLinkRoutes, staffApi);
        await scope.register(staffBillingRoutes, staffApi);
        await scope.register(staffPaymentReadRoutes, staffApi);
        await scope.register(staffPlanOrderReadRoutes, staffApi);
        await scope.register(staffNewbornAgreementRoutes, staffApi);
      },
      { audit },
    ),
  );
  await app.register(
    protectedScope(
      sessions,
      ['staff'],
      async (scope) => {
        await scope.register(staffAdminRoutes, staffApi);
        await scope.register(staffBillingAdminRoutes, staffApi);
        await scope.register(staffRefundRoutes, staffApi);
        await scope.register(staffPlanRefundRoutes, staffApi);
      },
      { audit, admits: (session) => session.role === 'staff' && session.level === 'admin' },
    ),
  );
  if (config.payments.gateway === 'sandbox') {
    await app.register(sandboxTokenizerRoutes(db, clock), { prefix: SANDBOX_GATEWAY_PREFIX });
  }
  if (config.devOutbox && mailer.kind === 'outbox') await app.register(outboxRoutes, deps);
  if (config.devOutbox && sms.kind === 'offline') await app.register(smsOutboxRoutes, deps);

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
  const pageHtml = hasWeb ? pageHtmlFor(webRoot) : null;
  app.setNotFoundHandler((request, reply) => {
    // A missing hashed asset is a 404, not the page: a browser would run the page as a script.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/assets/');
    if (isPage && pageHtml) {
      const page = pageHtml(request.url.split('?')[0] ?? '/');
      reply.header('cache-control', 'no-cache').header('etag', page.etag);
      if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
      return reply.type('text/html; charset=utf-8').send(page.body);
    }
    return reply
      .code(errorStatus.NOT_FOUND)
      .send({ error: 'Not found', code: 'NOT_FOUND' } satisfies ErrorBody);
  });

  return app;
}
