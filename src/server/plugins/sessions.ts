import fastifyCookie from '@fastify/cookie';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authPolicy } from '../../domain/auth';
import { staffPolicy } from '../../domain/staff';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { sessions } from '../db/schema';
import type { Clock } from '../lib/clock';
import { notFound, unauthenticated } from '../lib/http-error';
import { randomToken, sha256Hex } from '../lib/secrets';

/** A signed-in client: only ever themselves. */
export interface ClientSession {
  role: 'client';
  id: string;
  clientId: string;
}

/** A signed-in physician, and the client they chose to act for (held here, not by the browser). */
export interface PhysicianSession {
  role: 'physician';
  id: string;
  physicianId: string;
  actingForClientId: string | null;
}

/** A staff member who has passed the password but not yet the second factor: nothing staff-only answers. */
export interface StaffPendingSession {
  role: 'staff_pending';
  id: string;
  staffId: string;
}

/** A staff member past both factors, at their level. */
export interface StaffSession {
  role: 'staff';
  id: string;
  staffId: string;
  level: StaffLevel;
}

export type StaffLevel = 'staff' | 'admin';

/** Who a request is from: one variant per role, each with only what that role has. */
export type Session = ClientSession | PhysicianSession | StaffPendingSession | StaffSession;
export type Role = Session['role'];
export type SessionOf<R extends Role> = Extract<Session, { role: R }>;

/** Who a new session is for. */
export type SessionOwner =
  | { role: 'client'; clientId: string }
  | { role: 'physician'; physicianId: string }
  | { role: 'staff_pending'; staffId: string }
  | { role: 'staff'; staffId: string; level: StaffLevel };

/** Whose sessions end together (all of a staff member's, half or whole). */
export type AccountRef =
  | { role: 'client'; clientId: string }
  | { role: 'physician'; physicianId: string }
  | { role: 'staff'; staffId: string };

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
}

// Writing lastSeenAt on every request would turn each read into a write; a few seconds of
// slack in the idle clock is invisible against five minutes.
const TOUCH_AFTER_MS = 5_000;
const RECENT_MS = 1_000;
const RECENT_MAX = 10_000;

type SessionRow = typeof sessions.$inferSelect;

/** Staff sessions idle out after 15 minutes; clients' and physicians' after 5 (or as configured, shorter). */
function idleTimeoutOf(role: SessionRow['role'], idle: Config['idleSignOutMs']): number {
  return role === 'staff' || role === 'staff_pending' ? idle.staff : idle.portal;
}

/**
 * The session a scope's guard attached, as the variant of the roles the scope admits. A request
 * outside such a scope has none: 401.
 */
export function sessionOf<R extends Role>(request: FastifyRequest, ...roles: R[]): SessionOf<R> {
  const session = request.session;
  if (!session) throw unauthenticated();
  if (roles.length > 0 && !(roles as Role[]).includes(session.role)) throw notFound();
  return session as SessionOf<R>;
}

/** The session of a row, or null when the row is not a well-formed one of its role. */
function sessionOfRow(id: string, row: SessionRow): Session | null {
  if (row.role === 'client' && row.clientId) return { role: 'client', id, clientId: row.clientId };
  if (row.role === 'physician' && row.physicianId) {
    return {
      role: 'physician',
      id,
      physicianId: row.physicianId,
      actingForClientId: row.actingForClientId,
    };
  }
  if (row.role === 'staff_pending' && row.staffId) return { role: 'staff_pending', id, staffId: row.staffId };
  if (row.role === 'staff' && row.staffId && row.staffLevel) {
    return { role: 'staff', id, staffId: row.staffId, level: row.staffLevel };
  }
  return null;
}

/** Cookies, and the session slot every request starts with empty (a scope's guard fills it). */
export async function sessionsPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('session', null);
  await app.register(fastifyCookie);
}

export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-portal_session' : 'portal_session';
}

export interface SessionService {
  start(reply: FastifyReply, who: SessionOwner): Promise<void>;
  /** The live session of this request, or null; `touch: false` reads without extending it. */
  load(request: FastifyRequest, options?: { touch?: boolean }): Promise<Session | null>;
  /** The live session, or a 401. */
  require(request: FastifyRequest): Promise<Session>;
  /** Sets (or clears) the client a physician's session acts for. */
  actFor(session: PhysicianSession, clientId: string | null): Promise<void>;
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Ends every session of an account (after a password reset, or a staff account disabled). */
  endAllFor(who: AccountRef): Promise<void>;
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
    if (idleFor > idleTimeoutOf(row.role, config.idleSignOutMs) || now >= row.expiresAt) {
      recent.delete(id);
      await db.delete(sessions).where(eq(sessions.id, id));
      return null;
    }
    if (options.touch !== false && idleFor > TOUCH_AFTER_MS) {
      row.lastSeenAt = now;
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
    }
    return sessionOfRow(id, row);
  }

  return {
    async start(reply, who) {
      const token = randomToken();
      const now = clock.now();
      const lasts = who.role === 'staff_pending' ? staffPolicy.halfSessionMs : authPolicy.absoluteSessionMs;
      await db.insert(sessions).values({
        id: sha256Hex(token),
        role: who.role,
        clientId: who.role === 'client' ? who.clientId : null,
        physicianId: who.role === 'physician' ? who.physicianId : null,
        staffId: who.role === 'staff' || who.role === 'staff_pending' ? who.staffId : null,
        staffLevel: who.role === 'staff' ? who.level : null,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + lasts),
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
    async actFor(session, clientId) {
      recent.delete(session.id);
      await db
        .update(sessions)
        .set({ actingForClientId: clientId })
        .where(and(eq(sessions.id, session.id), eq(sessions.role, 'physician')));
      session.actingForClientId = clientId;
    },
    async endAllFor(who) {
      const owned = (row: SessionRow) =>
        who.role === 'client'
          ? row.role === 'client' && row.clientId === who.clientId
          : who.role === 'physician'
            ? row.role === 'physician' && row.physicianId === who.physicianId
            : row.staffId === who.staffId;
      for (const [id, entry] of recent) if (owned(entry.row)) recent.delete(id);
      await db
        .delete(sessions)
        .where(
          who.role === 'client'
            ? and(eq(sessions.role, 'client'), eq(sessions.clientId, who.clientId))
            : who.role === 'physician'
              ? and(eq(sessions.role, 'physician'), eq(sessions.physicianId, who.physicianId))
              : eq(sessions.staffId, who.staffId),
        );
    },
  };
}
