import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PORTAL_CLIENT_HEADER } from '../../domain/portal-client';
import { SANDBOX_GATEWAY_PREFIX } from '../adapters/payments';
import type { Config } from '../config';
import { HttpError } from '../lib/http-error';

const ACCEPT_JS_ORIGINS = ['https://js.authorize.net', 'https://jstest.authorize.net'];
const ACCEPT_API_ORIGINS = ['https://api2.authorize.net', 'https://apitest.authorize.net'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET that changes something (sends mail): it answers only a call the portal's own pages
     * made, which an Origin check cannot tell (a cross-site image or link sends no Origin).
     */
    sameOriginOnly?: boolean;
  }
}

/**
 * Browser features no page of the portal uses, turned off for it and anything it embeds:
 * an injected script cannot reach the camera, microphone or location of a client.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
].join(', ');

const crossSiteRefusal = () =>
  new HttpError('FORBIDDEN_ORIGIN', 'This request came from another site and was refused.');

/**
 * Whether the portal's own pages made this call: the browser says so (`Sec-Fetch-Site`, which no
 * page can set), or it carries the header only the portal's API client sends.
 */
function fromOurOwnPages(request: FastifyRequest): boolean {
  return (
    request.headers['sec-fetch-site'] === 'same-origin' || request.headers[PORTAL_CLIENT_HEADER] !== undefined
  );
}

/**
 * Security headers for every answer (a content security policy that admits Accept.js only with
 * that gateway, and a permissions policy), and the refusal of cross-site state-changing calls.
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
    // frame-ancestors 'none' says it for every browser that matters; the old header is not sent too.
    xFrameOptions: false,
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
  });

  // Cross-site form posts are refused: a state-changing API call must come from our own origin.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.sameOriginOnly && !fromOurOwnPages(request)) throw crossSiteRefusal();
    const guarded = request.url.startsWith('/api/') || request.url.startsWith(SANDBOX_GATEWAY_PREFIX);
    if (request.method === 'GET' || request.method === 'HEAD' || !guarded) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {}
    if (originHost !== request.headers.host && origin !== config.publicUrl) throw crossSiteRefusal();
  });
}
