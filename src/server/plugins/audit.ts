import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditAction, AuditEvent } from '../../domain/staff';
import type { Database } from '../db/client';
import type { auditEvents } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { Session } from './sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This route reads or changes a client's personal data, payment data or documents: audit it.
     * null: the route touches no client's data. Required in every audited scope.
     */
    audit?: AuditAction | null;
  }
}

// The clients each request showed or acted on (resolveClientAccess, the staff record lookup, a
// list's rows), by the request's session object, or by the request itself on the public pages
// (no session): one per request, so nothing is shared between requests.
const shownClients = new WeakMap<object, string[]>();

/** Notes the client a request was allowed to act on, for the audit row of its answer. */
export function noteResolvedClient(session: Session, clientId: string): void {
  shownClients.set(session, [clientId]);
}

/**
 * Notes every client an answer shows (a list: a search, a queue, the physician's clients; a
 * public page): its audit leaves one row per client, so each client's "who saw my record" is
 * complete. `by` is the request's session, or the request on a public page.
 */
export function noteShownClients(by: Session | FastifyRequest, clientIds: Iterable<string>): void {
  const noted = shownClients.get(by) ?? [];
  for (const id of clientIds) if (!noted.includes(id)) noted.push(id);
  shownClients.set(by, noted);
}

// The money a change moved, by request: one per request, so nothing is shared between requests.
const movedAmounts = new WeakMap<FastifyRequest, number>();

/** Notes the money an audited change moved (a payment settled, a refund, a check), for its audit rows. */
export function noteAuditAmount(request: FastifyRequest, cents: number): void {
  movedAmounts.set(request, cents);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Actor = { actorRole: AuditEvent['actorRole']; actorId: string };

/**
 * Whoever opened a public page (a signed link, the payment pages' confirmation): no account, so
 * no id; the row's IP and route say the rest.
 */
const PUBLIC_ACTOR: Actor = { actorRole: 'public', actorId: '00000000-0000-0000-0000-000000000000' };

// Rows per batch: a batch of answers finishing together stays one modest statement.
const ROWS_PER_BATCH = 1000;

type AuditRow = typeof auditEvents.$inferInsert;

function actorOf(session: Session | null): Actor | null {
  if (!session) return PUBLIC_ACTOR;
  switch (session.role) {
    case 'client':
      return { actorRole: 'client', actorId: session.clientId };
    case 'physician':
      return { actorRole: 'physician', actorId: session.physicianId };
    case 'staff':
      return { actorRole: 'staff', actorId: session.staffId };
    default:
      return null;
  }
}

export interface AuditTrail {
  /**
   * The onSend hook of a protected scope, and of the public scope: for each audited answer that
   * succeeded, one row per client it showed (one row naming no client when it showed none).
   */
  record(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** Writes the rows of one answer; settles once they are committed, or fails when they are not. */
export interface AuditWriter {
  write(rows: AuditRow[]): Promise<void>;
}

interface Waiting {
  rows: AuditRow[];
  recorded(): void;
  failed(error: unknown): void;
}

/**
 * A group commit: while one INSERT is on its way, the rows of the answers that finish meanwhile
 * wait together, and go as the next INSERT the moment it is back. A batch is taken on the next turn
 * of the event loop, after the requests already read from the network have run: on PGlite, whose
 * queries run on this thread, that turn is when other requests reach the database at all. Under
 * load, one commit records many answers instead of each paying its own. Every waiter of a
 * batch hears its outcome: recorded when the INSERT committed, the INSERT's error when it did not
 * (then none of the batch's rows is in the trail, and none of its answers leaves).
 *
 * `insert` writes one batch all or nothing. A batch holds at most `maxRows` rows, of whole
 * answers, except an answer with more rows than that (a long list), which goes alone.
 */
export function createAuditWriter(
  insert: (rows: AuditRow[]) => Promise<void>,
  maxRows = ROWS_PER_BATCH,
): AuditWriter {
  let waiting: Waiting[] = [];
  let flushing = false;

  function nextBatch(): Waiting[] {
    let rows = 0;
    let taken = 0;
    for (const entry of waiting) {
      if (taken > 0 && rows + entry.rows.length > maxRows) break;
      rows += entry.rows.length;
      taken += 1;
    }
    const batch = waiting.slice(0, taken);
    waiting = waiting.slice(taken);
    return batch;
  }

  async function flush() {
    while (waiting.length > 0) {
      await new Promise((turn) => setImmediate(turn));
      const batch = nextBatch();
      try {
        await insert(batch.flatMap((entry) => entry.rows));
        for (const entry of batch) entry.recorded();
      } catch (error) {
        for (const entry of batch) entry.failed(error);
      }
    }
    flushing = false;
  }

  return {
    write(rows) {
      if (rows.length === 0) return Promise.resolve();
      return new Promise<void>((recorded, failed) => {
        waiting.push({ rows, recorded, failed });
        if (!flushing) {
          flushing = true;
          void flush();
        }
      });
    },
  };
}

/**
 * One INSERT per batch, whatever its length: the rows go as one JSON parameter, so the statement's
 * text is the same for every batch and costs nothing to build, and a long list needs no second
 * statement (PostgreSQL's 65,535 parameters do not apply).
 */
function insertInto(db: Database) {
  return async (rows: AuditRow[]) => {
    const json = JSON.stringify(
      rows.map((row) => ({
        at: row.at,
        actor_role: row.actorRole,
        actor_id: row.actorId,
        client_id: row.clientId ?? null,
        action: row.action,
        route: row.route,
        document_id: row.documentId ?? null,
        amount_cents: row.amountCents ?? null,
        ip: row.ip,
        status_code: row.statusCode,
      })),
    );
    await db.execute(sql`
      insert into audit_events (at, actor_role, actor_id, client_id, action, route, document_id, amount_cents, ip, status_code)
      select at, actor_role, actor_id, client_id, action, route, document_id, amount_cents, ip, status_code
      from jsonb_to_recordset(${json}::jsonb) as r(at timestamptz, actor_role text, actor_id uuid,
        client_id uuid, action text, route text, document_id uuid, amount_cents integer, ip text,
        status_code integer)`);
  };
}

/**
 * The append-only trail: who (role and id), which client, what (the route's audit action and its
 * pattern), when, from which IP, and the money a change moved. Written before the answer leaves, so
 * an answer that was not recorded is not sent; the rows of answers finishing together share one
 * INSERT (createAuditWriter). Only ids, the route pattern and that amount: never a body, query,
 * code or token.
 */
export function createAuditTrail(db: Database, clock: Clock): AuditTrail {
  const writer = createAuditWriter(insertInto(db));
  return {
    async record(request, reply) {
      const action = request.routeOptions.config?.audit;
      const session = request.session ?? null;
      if (!action || reply.statusCode >= 400) return;
      const actor = actorOf(session);
      if (!actor) return;
      const params = request.params as { id?: unknown } | undefined;
      const documentId =
        action === 'read-document' && typeof params?.id === 'string' && UUID.test(params.id.toLowerCase())
          ? params.id.toLowerCase()
          : null;
      const noted = (session && shownClients.get(session)) ?? shownClients.get(request);
      // A client's own call is about themselves, whatever the route resolved.
      const clientIds = noted?.length ? noted : [session?.role === 'client' ? session.clientId : null];
      const at = clock.now();
      const rows = clientIds.map((clientId) => ({
        at,
        ...actor,
        clientId,
        action,
        route: `${request.method} ${request.routeOptions.url ?? ''}`,
        documentId,
        amountCents: movedAmounts.get(request) ?? null,
        ip: request.ip,
        statusCode: reply.statusCode,
      }));
      await writer.write(rows);
    },
  };
}
