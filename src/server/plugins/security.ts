import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { SANDBOX_GATEWAY_PREFIX } from '../adapters/payments';
import type { Config } from '../config';
import { HttpError } from '../lib/http-error';

const ACCEPT_JS_ORIGINS = ['https://js.authorize.net', 'https://jstest.authorize.net'];
const ACCEPT_API_ORIGINS = ['https://api2.authorize.net', 'https://apitest.authorize.net'];

/**
 * Security headers for every answer (a content security policy that admits Accept.js only with
 * that gateway), and the refusal of cross-site state-changing calls.
 */
export async function securityPlugin(app: FastifyInstance, config: Config): Promise<void> {
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
}
