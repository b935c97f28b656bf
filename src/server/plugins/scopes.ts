import type { FastifyInstance } from 'fastify';
import { notFound } from '../lib/http-error';
import type { AuditTrail } from './audit';
import type { Role, Session, SessionService } from './sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route of a shared scope open to fewer of its roles (a client-only order in the client and
     * physician scope): checked with the scope's, before the body is read, so another role gets
     * the same 404 as a route that does not exist, never the route's 400.
     */
    roles?: readonly Role[];
  }
}

export interface ScopeOptions {
  /** The scope's audit hook: routes with `config.audit` leave a row per answer. */
  audit?: AuditTrail;
  /** A further condition on the session (an admin-only scope): otherwise the same 404. */
  admits?: (session: Session) => boolean;
}

/**
 * A protected scope: every route registered inside needs a live session of one of `roles`, checked
 * once, here. No session answers 401; a session of another role answers 404, as a route that does
 * not exist for it. Handlers read the session with `sessionOf(request, ...roles)`. The scope's one
 * audit hook records the answers of the routes that declare `config: { audit }`; every route of an
 * audited scope must declare it (null: no client data). A route for only some of the scope's roles
 * says so with `config: { roles }`, checked here too.
 */
export function protectedScope(
  sessions: SessionService,
  roles: readonly Role[],
  routes: (scope: FastifyInstance) => Promise<void>,
  options: ScopeOptions = {},
) {
  return async (scope: FastifyInstance) => {
    // On the request, before its body is read: a session of another role learns nothing of a
    // route's body, not even its 400 (unreadable JSON, a card number refused, a field's rule).
    scope.addHook('onRequest', async (request) => {
      const session = await sessions.require(request);
      if (!roles.includes(session.role)) throw notFound();
      const routeRoles = request.routeOptions.config?.roles;
      if (routeRoles && !routeRoles.includes(session.role)) throw notFound();
      if (options.admits && !options.admits(session)) throw notFound();
    });
    // A route's own roles narrow the scope's, never widen them.
    scope.addHook('onRoute', (route) => {
      const extra = route.config?.roles?.filter((role) => !roles.includes(role)) ?? [];
      if (extra.length > 0) {
        throw new Error(`${route.method} ${route.url}: config.roles ${extra.join(', ')} not in its scope`);
      }
    });
    const audit = options.audit;
    if (audit) {
      // Every route of an audited scope says whether it is audited: an action, or null when it
      // touches no client's data. A route added without deciding stops the server at boot.
      scope.addHook('onRoute', (route) => {
        if (route.config?.audit === undefined) {
          throw new Error(
            `${route.method} ${route.url}: declare config.audit (an audit action, or null when the route touches no client's data)`,
          );
        }
      });
      scope.addHook('onSend', async (request, reply, payload) => {
        await audit.record(request, reply);
        return payload;
      });
    }
    await routes(scope);
  };
}

/**
 * The public scope: routes anyone may call (sign-in, recovery, the public payment pages). The
 * audit hook records the answers of the routes that declare `config: { audit }` (a public page
 * showing a client's data), with a public actor.
 */
export function publicScope(
  routes: (scope: FastifyInstance) => Promise<void>,
  options: Pick<ScopeOptions, 'audit'> = {},
) {
  return async (scope: FastifyInstance) => {
    const audit = options.audit;
    if (audit) {
      scope.addHook('onSend', async (request, reply, payload) => {
        await audit.record(request, reply);
        return payload;
      });
    }
    await routes(scope);
  };
}
