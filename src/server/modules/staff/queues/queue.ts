import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../../app-deps';
import type { Database } from '../../../db/client';
import type { Recovered, RecoveryRun } from '../../../lib/run-once';
import type { PaidOrderDeps } from '../../payments/paid-order';

/** A recovery of the run-once engine, as the reconciliation sweep calls it. */
export type QueueRecovery = (run: RecoveryRun<never>, claimed: never) => Promise<Recovered>;

/**
 * Every kind of run-once operation's recovery: the reconciliation sweep's own table, which a
 * queue may use to settle an operation the way the sweep would. The composition root hands it to
 * the queues' routes, because the sweep's table lists the queues' recoveries: a queue importing
 * the sweep would import itself.
 */
export type RecoveriesByKind = (log: {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}) => Record<string, QueueRecovery>;

/** What the queues' routes are registered with. */
export type StaffQueueDeps = AppDeps & { recoveriesByKind: RecoveriesByKind };

/**
 * One work queue of the back office. The home page shows each with its count; its routes (its
 * list, oldest first, and its actions) are registered under `/api/staff` in the staff scope. A
 * queue whose actions run on the run-once engine gives the sweep its recoveries by kind.
 */
export interface StaffQueue {
  /** Also the web's key for the queue's page: `/staff/queues/<key>`. */
  key: string;
  /**
   * The home card's title, also the queue page's heading: Title Case, with short articles,
   * conjunctions and prepositions in lower case ("Payments in Doubt", "New Samples Paid by Check").
   */
  title: string;
  count(db: Database): Promise<number>;
  routes: FastifyPluginAsyncZod<StaffQueueDeps>;
  recoveries?: (deps: PaidOrderDeps) => Record<string, QueueRecovery>;
}
