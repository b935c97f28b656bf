import type { FastifyInstance } from 'fastify';
import { notFound } from '../lib/http-error';
import type { Role, SessionService } from './sessions';

/**
 * A protected scope: every route registered inside needs a live session of one of `roles`, checked
 * once, here. No session answers 401; a session of another role answers 404, as a route that does
 * not exist for it. Handlers read the session with `sessionOf(request, ...roles)`.
 */
export function protectedScope(
  sessions: SessionService,
  roles: readonly Role[],
  routes: (scope: FastifyInstance) => Promise<void>,
) {
  return async (scope: FastifyInstance) => {
    scope.addHook('preHandler', async (request) => {
      const session = await sessions.require(request);
      if (!roles.includes(session.role)) throw notFound();
    });
    await routes(scope);
  };
}

/** The public scope: routes anyone may call (sign-in, recovery, the public payment pages). */
export function publicScope(routes: (scope: FastifyInstance) => Promise<void>) {
  return async (scope: FastifyInstance) => {
    await routes(scope);
  };
}
