import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { outboxMessages } from '../db/schema';
import { type LoopbackSmtp, startLoopbackSmtp } from '../testing/loopback-smtp';
import { ManualClock } from '../testing/manual-clock';
import { createTestDatabase } from '../testing/test-database';
import { createMailer, type MailTransport, outboxOnlyTransport, smtpTransport } from './mailer';

let database: DatabaseHandle;
let smtp: LoopbackSmtp;
const clock = new ManualClock();
const documentsKey = randomBytes(32);
const lines: string[] = [];
const log = {
  info: (obj: object, msg: string) => lines.push(JSON.stringify({ ...obj, msg })),
  warn: (obj: object, msg: string) => lines.push(JSON.stringify({ ...obj, msg })),
};

function mailerOver(transport: MailTransport) {
  return createMailer({ db: database.db, clock, documentsKey, transport, from: 'portal@example.com', log });
}

async function statuses() {
  const rows = await database.db.select().from(outboxMessages);
  return {
    sent: rows.filter((r) => r.status === 'sent').length,
    pending: rows.filter((r) => r.status === 'pending').length,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startLoopbackSmtp();
});
afterAll(async () => {
  await smtp.close();
  await database.close();
});
beforeEach(async () => {
  await database.db.delete(outboxMessages);
  smtp.received.length = 0;
  lines.length = 0;
});

describe('the mail outbox', () => {
  it('sends all of 100 pending e-mails after one kick, each once', async () => {
    const mailer = mailerOver(smtpTransport(smtp.url, 'portal@example.com'));
    for (let i = 0; i < 100; i++) {
      await mailer.enqueue(database.db, {
        to: `client${i}@example.com`,
        subject: `Receipt ${i}`,
        text: 'Thank you.',
      });
    }
    mailer.kick();
    await mailer.close();
    expect(await statuses()).toEqual({ sent: 100, pending: 0 });
    expect(smtp.received).toHaveLength(100);
    const subjects = smtp.received.map((raw) => /^Subject: (.*)$/m.exec(raw)?.[1]);
    expect(new Set(subjects).size).toBe(100);
  });

  it('sends each e-mail once when two processes drain the same backlog at the same time', async () => {
    const first = mailerOver(smtpTransport(smtp.url, 'portal@example.com'));
    const second = mailerOver(smtpTransport(smtp.url, 'portal@example.com'));
    for (let i = 0; i < 60; i++) {
      await first.enqueue(database.db, {
        to: `client${i}@example.com`,
        subject: `Notice ${i}`,
        text: 'Hello.',
      });
    }
    const [a, b] = await Promise.all([first.deliverDue(), second.deliverDue()]);
    expect((a?.sent ?? 0) + (b?.sent ?? 0)).toBe(60);
    expect(smtp.received).toHaveLength(60);
    expect(await statuses()).toEqual({ sent: 60, pending: 0 });
    await Promise.all([first.close(), second.close()]);
  });

  it('stops at e-mails that fail and tries them again after 30 seconds', async () => {
    const failing: MailTransport = {
      kind: 'smtp',
      deliver: async () => {
        throw new Error('relay down');
      },
      close: async () => {},
    };
    const mailer = mailerOver(failing);
    for (let i = 0; i < 25; i++) {
      await mailer.enqueue(database.db, { to: `client${i}@example.com`, subject: `Receipt ${i}`, text: 'x' });
    }
    expect(await mailer.deliverDue()).toEqual({ sent: 0, failed: 25 });
    expect(await mailer.deliverDue()).toEqual({ sent: 0, failed: 0 });
    const [row] = await database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.subject, 'Receipt 0'));
    expect(row?.attempts).toBe(1);
    expect(row?.nextAttemptAt.getTime()).toBe(clock.now().getTime() + 30_000);
    clock.advance(30_000);
    expect(await mailer.deliverDue()).toEqual({ sent: 0, failed: 25 });
    await mailer.close();
  });

  it('logs no subject (it can name the client) when the outbox is the mailbox', async () => {
    const mailer = mailerOver(outboxOnlyTransport(log));
    await mailer.send({
      to: 'lukasz@example.com',
      subject: 'Receipt for Łukasz Wiśniewski',
      text: 'Dear Łukasz Wiśniewski, thank you.',
    });
    await mailer.close();
    expect(await statuses()).toEqual({ sent: 1, pending: 0 });
    expect(lines.join('\n')).toContain('mail kept in the outbox');
    expect(lines.join('\n')).not.toMatch(/Wiśniewski|Łukasz|Receipt|lukasz@/);
  });

  it('draws a receipt when its e-mail leaves by SMTP, and draws nothing when the outbox is the mailbox', async () => {
    const drawn: string[] = [];
    const drawReceipt = async (paymentId: string) => {
      drawn.push(paymentId);
      return new TextEncoder().encode(`%PDF-1.7 receipt of ${paymentId}`);
    };
    const receiptMail = (to: string) => ({
      to,
      subject: 'Your annual storage receipt',
      text: 'The receipt is attached.',
      attachments: [
        { receiptOfPaymentId: `payment-of-${to}`, filename: 'receipt.pdf', contentType: 'application/pdf' },
      ],
    });
    const bySmtp = createMailer({
      db: database.db,
      clock,
      documentsKey,
      transport: smtpTransport(smtp.url, 'portal@example.com'),
      from: 'portal@example.com',
      log,
      drawReceipt,
    });
    await bySmtp.enqueueMany(database.db, [
      { mail: receiptMail('ivy@example.com'), dedupeKey: 'receipt-ivy' },
      { mail: receiptMail('ivy@example.com'), dedupeKey: 'receipt-ivy' },
    ]);
    bySmtp.kick();
    await bySmtp.close();
    expect(smtp.received).toHaveLength(1);
    expect(drawn).toEqual(['payment-of-ivy@example.com']);
    const attached = /filename="?receipt\.pdf"?[\s\S]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
      smtp.received[0] ?? '',
    );
    expect(Buffer.from(attached?.[1] ?? '', 'base64').toString()).toBe(
      '%PDF-1.7 receipt of payment-of-ivy@example.com',
    );

    drawn.length = 0;
    const outboxOnly = createMailer({
      db: database.db,
      clock,
      documentsKey,
      transport: outboxOnlyTransport(log),
      from: 'portal@example.com',
      log,
      drawReceipt,
    });
    await outboxOnly.enqueue(database.db, receiptMail('ben@example.com'));
    outboxOnly.kick();
    await outboxOnly.close();
    expect(drawn).toEqual([]);
    expect(await statuses()).toEqual({ sent: 2, pending: 0 });
  });
});
