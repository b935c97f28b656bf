import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authPolicy } from '../../domain/auth';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { sessions } from '../db/schema';
import type { Clock } from '../lib/clock';
import { unauthenticated } from '../lib/http-error';
import { randomToken, sha256Hex } from '../lib/secrets';

export interface SessionContext {
  id: string;
  role: 'client' | 'physician';
  clientId: string | null;
  physicianId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionContext | null;
  }
}

// Writing lastSeenAt on every request would turn each read into a write; a few seconds of
// slack in the idle clock is invisible against five minutes.
const TOUCH_AFTER_MS = 5_000;

/** The session a protected route's hook attached; a 401 if the route was not protected. */
export function sessionOf(request: FastifyRequest): SessionContext {
  if (!request.session) throw unauthenticated();
  return request.session;
}

export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-portal_session' : 'portal_session';
}

export interface SessionService {
  start(reply: FastifyReply, who: { role: 'client'; clientId: string }): Promise<void>;
  /** The live session of this request, or null; `touch: false` reads without extending it. */
  load(request: FastifyRequest, options?: { touch?: boolean }): Promise<SessionContext | null>;
  /** The live session, or a 401. */
  require(request: FastifyRequest): Promise<SessionContext>;
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  endAllForClient(clientId: string): Promise<void>;
}

export function createSessionService(db: Database, clock: Clock, config: Config): SessionService {
  const cookieName = sessionCookieName(config);
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.secureCookies,
  };

  function tokenOf(request: FastifyRequest): string | null {
    const token = request.cookies[cookieName];
    return token && token.length <= 128 ? token : null;
  }

  async function load(request: FastifyRequest, options: { touch?: boolean } = {}) {
    const token = tokenOf(request);
    if (!token) return null;
    const id = sha256Hex(token);
    const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
    if (!row) return null;
    const now = clock.now();
    const idleFor = now.getTime() - row.lastSeenAt.getTime();
    if (idleFor > authPolicy.idleTimeoutMs || now >= row.expiresAt) {
      await db.delete(sessions).where(eq(sessions.id, id));
      return null;
    }
    if (options.touch !== false && idleFor > TOUCH_AFTER_MS) {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
    }
    return { id, role: row.role, clientId: row.clientId, physicianId: row.physicianId };
  }

  return {
    async start(reply, who) {
      const token = randomToken();
      const now = clock.now();
      await db.insert(sessions).values({
        id: sha256Hex(token),
        role: who.role,
        clientId: who.clientId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + authPolicy.absoluteSessionMs),
      });
      reply.setCookie(cookieName, token, cookieOptions);
    },
    load,
    async require(request) {
      const session = await load(request);
      if (!session) throw unauthenticated();
      request.session = session;
      return session;
    },
    async end(request, reply) {
      const token = tokenOf(request);
      if (token) await db.delete(sessions).where(eq(sessions.id, sha256Hex(token)));
      reply.clearCookie(cookieName, cookieOptions);
    },
    async endAllForClient(clientId) {
      await db.delete(sessions).where(and(eq(sessions.role, 'client'), eq(sessions.clientId, clientId)));
    },
  };
}
