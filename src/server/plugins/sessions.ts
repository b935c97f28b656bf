import { and, eq, sql } from 'drizzle-orm';
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
const RECENT_MS = 1_000;
const RECENT_MAX = 10_000;

type SessionRow = typeof sessions.$inferSelect;

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
  // Every signed-in request reads its session: prepare the statement once.
  const findSession = db
    .select()
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('find_session');
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

  // Sessions read in the last second are taken from memory. The row in the database stays the
  // authority: this process forgets a session the moment it ends one, and another process's
  // sign-out or password reset reaches it within RECENT_MS.
  const recent = new Map<string, { row: SessionRow; readAt: number }>();

  async function readSession(id: string, now: number): Promise<SessionRow | undefined> {
    const cached = recent.get(id);
    if (cached && now - cached.readAt < RECENT_MS && now >= cached.readAt) return cached.row;
    const [row] = await findSession.execute({ id });
    recent.delete(id);
    if (row) {
      if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
      recent.set(id, { row, readAt: now });
    }
    return row;
  }

  async function load(request: FastifyRequest, options: { touch?: boolean } = {}) {
    const token = tokenOf(request);
    if (!token) return null;
    const id = sha256Hex(token);
    const now = clock.now();
    const row = await readSession(id, now.getTime());
    if (!row) return null;
    const idleFor = now.getTime() - row.lastSeenAt.getTime();
    if (idleFor > authPolicy.idleTimeoutMs || now >= row.expiresAt) {
      recent.delete(id);
      await db.delete(sessions).where(eq(sessions.id, id));
      return null;
    }
    if (options.touch !== false && idleFor > TOUCH_AFTER_MS) {
      row.lastSeenAt = now;
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
      if (token) {
        const id = sha256Hex(token);
        recent.delete(id);
        await db.delete(sessions).where(eq(sessions.id, id));
      }
      reply.clearCookie(cookieName, cookieOptions);
    },
    async endAllForClient(clientId) {
      for (const [id, entry] of recent) if (entry.row.clientId === clientId) recent.delete(id);
      await db.delete(sessions).where(and(eq(sessions.role, 'client'), eq(sessions.clientId, clientId)));
    },
  };
}
