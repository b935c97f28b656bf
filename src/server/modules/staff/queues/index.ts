import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../../domain/errors';
import { queuesResponseSchema } from '../../../../domain/staff-queues';
import { labReportsQueue } from '../../forms/lab-reports-queue';
import { sampleChecksQueue } from '../../initial-processing/sample-checks-queue';
import { samplesToReceiveQueue } from '../../initial-processing/samples-to-receive';
import { planChecksQueue } from '../../ordering/plan-checks-queue';
import { storeOrdersQueue } from '../../ordering/store-orders-queue';
import { vialRequestsQueue } from '../../ordering/vial-requests-queue';
import type { PaidOrderDeps } from '../../payments/paid-order';
import { paymentsInDoubtQueue } from '../../payments/payments-in-doubt-queue';
import { storageChecksQueue } from '../../payments/storage-checks-queue';
import type { QueueRecovery, StaffQueue, StaffQueueDeps } from './queue';

/**
 * The back office's work queues, in the order of the home page's cards: add a queue here. Each
 * lives in the module that owns its rows; staff keeps the shell (this list, the counts, the routes).
 */
export const staffQueues: readonly StaffQueue[] = [
  sampleChecksQueue,
  samplesToReceiveQueue,
  labReportsQueue,
  vialRequestsQueue,
  paymentsInDoubtQueue,
  planChecksQueue,
  storageChecksQueue,
  storeOrdersQueue,
];

/** The recoveries of every queue's run-once actions, for the reconciliation sweep. */
export function staffQueueRecoveries(deps: PaidOrderDeps): Record<string, QueueRecovery> {
  return Object.fromEntries(staffQueues.flatMap((queue) => Object.entries(queue.recoveries?.(deps) ?? {})));
}

/** `GET /api/staff/queues` (each queue's count), and every queue's own routes. */
export const staffQueueRoutes: FastifyPluginAsyncZod<StaffQueueDeps> = async (app, options) => {
  // The queues' routes sit under this plugin's prefix: pass them the dependencies without it.
  const { prefix: _prefix, ...deps } = options as StaffQueueDeps & { prefix?: string };
  app.get(
    '/queues',
    {
      config: { audit: null },
      schema: {
        summary: 'The work queues with the number of items waiting in each',
        tags: ['staff queues'],
        response: { 200: queuesResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async () => ({
      queues: await Promise.all(
        staffQueues.map(async (queue) => ({
          key: queue.key,
          title: queue.title,
          count: await queue.count(deps.db),
        })),
      ),
    }),
  );
  for (const queue of staffQueues) await app.register(queue.routes, deps as StaffQueueDeps);
};
