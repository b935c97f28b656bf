import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formSubmissions, operations, outboxMessages } from '../db/schema';
import { addClient } from '../testing/form-fixtures';
import { startTestApp, type TestApp } from '../testing/test-app';
import { type Jobs, startJobs } from './jobs';

/**
 * The background jobs run through pg-boss on the app's own database (PGlite here, PostgreSQL
 * with TEST_DATABASE_URL): started with the server, they settle what a dead process left and
 * deliver the mail outbox without anyone asking.
 */

let t: TestApp;
let jobs: Jobs;
const log = { info() {}, warn() {} };

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await jobs?.stop();
  await t.close();
});

describe('background jobs on the database', () => {
  it('settle an abandoned signing and deliver pending mail once started', async () => {
    const client = await addClient(t.db);
    const [op] = await t.db
      .insert(operations)
      .values({
        scope: `client:${client.id}`,
        idempotencyKey: 'left-by-a-dead-process',
        kind: 'consent',
        requestHash: 'unknown',
        status: 'running',
        leaseToken: 'dead',
        leaseUntil: new Date(t.clock.now().getTime() - 1),
        createdAt: t.clock.now(),
      })
      .returning();
    const [submission] = await t.db
      .insert(formSubmissions)
      .values({
        clientId: client.id,
        form: 'consent',
        status: 'pending',
        idempotencyKey: 'left-by-a-dead-process',
        requestHash: 'unknown',
        operationId: op?.id,
        createdAt: t.clock.now(),
      })
      .returning();
    await t.db
      .update(operations)
      .set({
        stateJson: JSON.stringify({
          operationId: op?.id,
          submissionId: submission?.id,
          clientId: client.id,
          form: 'consent',
        }),
      })
      .where(eq(operations.id, op?.id as string));
    const [mail] = await t.db
      .insert(outboxMessages)
      .values({
        recipient: client.email,
        subject: 'Left in the outbox',
        textBody: 'Hello',
        nextAttemptAt: new Date(0),
      })
      .returning();

    jobs = await startJobs(t.app.deps, t.database, log);

    await vi.waitFor(
      async () => {
        const [settled] = await t.db
          .select()
          .from(operations)
          .where(eq(operations.id, op?.id as string));
        expect(settled?.status).toBe('failed');
        const [delivered] = await t.db
          .select()
          .from(outboxMessages)
          .where(eq(outboxMessages.id, mail?.id as string));
        expect(delivered?.status).toBe('sent');
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(
      await t.db.select().from(formSubmissions).where(eq(formSubmissions.clientId, client.id)),
    ).toHaveLength(0);
  });
});
