import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Transaction } from '../../lib/run-once';
import { clientActivities } from './schema';

/**
 * The client's activity timeline (Client Activity) as the other modules write it: what a paid
 * order, a check or a form adds, and the stage an order moves to. The clients module owns it.
 */

type Writer = Database | Transaction;

/** One line of a client's activity: what happened, when it closed, and what it cost. */
export type ClientActivity = Omit<typeof clientActivities.$inferInsert, 'id' | 'createdAt'>;

/** What an order's later steps change of its activity line (its stage, the practitioner's approval). */
export type ClientActivityChange = Partial<
  Pick<ClientActivity, 'stageName' | 'cellRequestApprovedByPractitioner' | 'amountCents' | 'paymentId'>
>;

/** Adds a line to the client's activity, in the caller's transaction; returns its id. */
export async function recordActivity(tx: Writer, activity: ClientActivity): Promise<string> {
  const [row] = await tx.insert(clientActivities).values(activity).returning({ id: clientActivities.id });
  if (!row) throw new Error('the client activity was not recorded');
  return row.id;
}

/** Adds many lines (a billing run's renewals) in one statement, in the caller's transaction. */
export async function recordActivities(tx: Writer, activities: readonly ClientActivity[]): Promise<void> {
  if (activities.length > 0) await tx.insert(clientActivities).values([...activities]);
}

/** Changes an activity line, in the caller's transaction. */
export async function updateActivity(
  tx: Writer,
  activityId: string,
  change: ClientActivityChange,
): Promise<void> {
  await tx.update(clientActivities).set(change).where(eq(clientActivities.id, activityId));
}
