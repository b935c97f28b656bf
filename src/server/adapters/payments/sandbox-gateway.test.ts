import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxRefunds, sandboxTokens } from '../../db/schema';
import { ManualClock } from '../../testing/manual-clock';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database';
import type { PaymentGateway, PaymentMethodKind, SavedMethod } from './payment-gateway';
import { createSandboxGateway, SANDBOX_TOKEN_DESCRIPTOR, sandboxSettlementTime } from './sandbox-gateway';

let database: TestDatabase;
let gateway: PaymentGateway;
// Tuesday 4 March 2025, 10:00 AM in Los Angeles: six hours before the day's batch cut-off.
const clock = new ManualClock('2025-03-04T18:00:00Z');
let referenceNumber = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = createSandboxGateway(database.db, clock);
});

afterAll(async () => {
  await database.close();
});

function nextReference(prefix: string): string {
  referenceNumber += 1;
  return `${prefix}${referenceNumber}`;
}

/** A method saved with a token as the sandbox tokenizer issues one (card 4242, or account 6789). */
async function savedMethod(kind: PaymentMethodKind, behavior = 'approve'): Promise<SavedMethod> {
  const token = `tok_sbx_test_${randomUUID()}`;
  await database.db.insert(sandboxTokens).values({
    token,
    kind,
    brand: kind === 'card' ? 'Visa' : null,
    last4: kind === 'card' ? '4242' : '6789',
    expiryMonth: kind === 'card' ? 12 : null,
    expiryYear: kind === 'card' ? 2030 : null,
    behavior,
    createdAt: clock.now(),
  });
  const saved = await gateway.saveMethod({
    customerRef: null,
    merchantCustomerId: randomUUID().slice(0, 20),
    email: 'client@example.org',
    kind,
    token: { descriptor: SANDBOX_TOKEN_DESCRIPTOR, value: token },
  });
  if (saved.outcome !== 'saved') throw new Error(`not saved: ${JSON.stringify(saved)}`);
  return saved.method;
}

async function chargedMethod(kind: PaymentMethodKind, amountCents = 10_000) {
  const method = await savedMethod(kind);
  const charge = await gateway.charge({
    customerRef: method.customerRef,
    paymentRef: method.paymentRef,
    amountCents,
    reference: nextReference('CHG'),
    description: 'Vial request',
  });
  if (charge.outcome !== 'approved') throw new Error(`not charged: ${JSON.stringify(charge)}`);
  return { method, chargeId: charge.transactionId };
}

/** Moves the clock to the next batch cut-off, the moment the open batch settles. */
function runBatch() {
  clock.advance(sandboxSettlementTime(clock.now()).getTime() - clock.now().getTime());
}

describe('sandbox gateway: the daily batch', () => {
  it.each([
    [
      'a morning charge settles at 4:00 PM Pacific the same day',
      '2025-03-04T18:00:00Z',
      '2025-03-05T00:00:00Z',
    ],
    ['one a second before the cut-off, in the same batch', '2025-03-04T23:59:59Z', '2025-03-05T00:00:00Z'],
    ['one made at the cut-off waits for the next day', '2025-03-05T00:00:00Z', '2025-03-06T00:00:00Z'],
    [
      'the cut-off follows daylight saving time on the day it starts',
      '2025-03-09T20:00:00Z',
      '2025-03-09T23:00:00Z',
    ],
    ['and on the day it ends', '2025-11-02T22:00:00Z', '2025-11-03T00:00:00Z'],
    ['an evening charge before the change settles after it', '2025-11-01T23:30:00Z', '2025-11-03T00:00:00Z'],
    ['a charge on New Year’s Eve afternoon settles that day', '2025-12-31T23:59:00Z', '2026-01-01T00:00:00Z'],
  ])('%s', (_rule, madeAt, settles) => {
    expect(sandboxSettlementTime(new Date(madeAt)).toISOString()).toBe(new Date(settles).toISOString());
  });
});

type Step =
  | { refund: number; expect: 'refunded' | 'not_settled' | 'exceeds_charge' | 'not_refundable' }
  | { void: 'charge' | 'last refund'; expect: 'voided' | 'settled' | 'not_voidable' }
  | { batch: true };

const scenarios: Array<[string, Step[]]> = [
  [
    'refunds the whole charge once it has settled, and nothing more',
    [{ batch: true }, { refund: 10_000, expect: 'refunded' }, { refund: 1, expect: 'exceeds_charge' }],
  ],
  [
    'refunds in parts up to the charge',
    [
      { batch: true },
      { refund: 2_500, expect: 'refunded' },
      { refund: 7_500, expect: 'refunded' },
      { refund: 1, expect: 'exceeds_charge' },
    ],
  ],
  [
    'refuses a refund above what is left of the charge',
    [
      { batch: true },
      { refund: 6_000, expect: 'refunded' },
      { refund: 4_001, expect: 'exceeds_charge' },
      { refund: 4_000, expect: 'refunded' },
    ],
  ],
  [
    'refuses a refund above the charge itself',
    [{ batch: true }, { refund: 10_001, expect: 'exceeds_charge' }],
  ],
  [
    'refuses to refund a charge before its batch settles: it is voided instead',
    [
      { refund: 10_000, expect: 'not_settled' },
      { refund: 100, expect: 'not_settled' },
      { void: 'charge', expect: 'voided' },
    ],
  ],
  [
    'refuses to void a charge once its batch has settled: it is refunded instead',
    [{ batch: true }, { void: 'charge', expect: 'settled' }, { refund: 10_000, expect: 'refunded' }],
  ],
  [
    'refuses to refund a voided charge, before and after the cut-off',
    [
      { void: 'charge', expect: 'voided' },
      { refund: 10_000, expect: 'not_refundable' },
      { batch: true },
      { refund: 10_000, expect: 'not_refundable' },
    ],
  ],
  [
    'answers a second void as the first, as the service does',
    [
      { void: 'charge', expect: 'voided' },
      { void: 'charge', expect: 'voided' },
      { batch: true },
      { void: 'charge', expect: 'voided' },
    ],
  ],
  [
    'voids a refund before its own batch settles, which gives its amount back to refund',
    [
      { batch: true },
      { refund: 10_000, expect: 'refunded' },
      { void: 'last refund', expect: 'voided' },
      { refund: 10_000, expect: 'refunded' },
      { batch: true },
      { void: 'last refund', expect: 'settled' },
      { refund: 1, expect: 'exceeds_charge' },
    ],
  ],
];

describe.each(['card', 'ach'] as const)(
  'sandbox gateway: refunds and voids of a %s charge of $100.00',
  (kind) => {
    it.each(scenarios)('%s', async (_rule, steps) => {
      const { method, chargeId } = await chargedMethod(kind);
      let lastRefund = '';
      for (const step of steps) {
        if ('batch' in step) {
          runBatch();
        } else if ('refund' in step) {
          const result = await gateway.refund({
            chargeTransactionId: chargeId,
            customerRef: method.customerRef,
            amountCents: step.refund,
            reference: nextReference('RFD'),
            description: 'Cancelled request',
          });
          expect(result.outcome === 'declined' ? result.reason : result.outcome, JSON.stringify(step)).toBe(
            step.expect,
          );
          if (result.outcome === 'refunded') lastRefund = result.transactionId;
        } else {
          const result = await gateway.void({
            transactionId: step.void === 'charge' ? chargeId : lastRefund,
          });
          expect(result.outcome === 'declined' ? result.reason : result.outcome, JSON.stringify(step)).toBe(
            step.expect,
          );
        }
      }
    });
  },
);

describe('sandbox gateway: refunds as the ledger sees them', () => {
  it('tells staff, in a sentence, why a refund or a void was refused', async () => {
    const { method, chargeId } = await chargedMethod('card');
    const refund = await gateway.refund({
      chargeTransactionId: chargeId,
      customerRef: method.customerRef,
      amountCents: 10_000,
      reference: nextReference('RFD'),
      description: 'Cancelled request',
    });
    expect(refund).toEqual({
      outcome: 'declined',
      reason: 'not_settled',
      message:
        'The charge has not settled yet: void it before the batch cut-off, or refund it once it has settled.',
    });
    runBatch();
    expect(await gateway.void({ transactionId: chargeId })).toEqual({
      outcome: 'declined',
      reason: 'settled',
      message: 'The transaction has settled and can no longer be voided. Refund it instead.',
    });
  });

  it('answers a retried refund with the first one: one refund, its transaction id', async () => {
    const { method, chargeId } = await chargedMethod('card');
    runBatch();
    const request = {
      chargeTransactionId: chargeId,
      customerRef: method.customerRef,
      amountCents: 4_000,
      reference: nextReference('RFD'),
      description: 'Cancelled request',
    };
    const first = await gateway.refund(request);
    const retry = await gateway.refund(request);
    expect(first).toEqual({ outcome: 'refunded', transactionId: expect.stringMatching(/^\d{12}$/) });
    expect(retry).toEqual(first);
    const rows = await database.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.chargeTransactionId, chargeId));
    expect(rows.map((row) => row.amountCents)).toEqual([4_000]);
  });

  it('refunds no more than the charge when ten refunds of it arrive at once', async () => {
    const { method, chargeId } = await chargedMethod('ach');
    runBatch();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        gateway.refund({
          chargeTransactionId: chargeId,
          customerRef: method.customerRef,
          amountCents: 3_000,
          reference: nextReference('RFD'),
          description: 'Cancelled request',
        }),
      ),
    );
    expect(results.filter((result) => result.outcome === 'refunded')).toHaveLength(3);
    expect(
      results.filter((result) => result.outcome === 'declined' && result.reason === 'exceeds_charge'),
    ).toHaveLength(7);
  });

  it("refuses to refund another customer's charge, a declined charge, or one it never made", async () => {
    const { chargeId } = await chargedMethod('card');
    const stranger = await savedMethod('card');
    const declining = await savedMethod('card', 'charge:generic_decline');
    const declined = await gateway.charge({
      customerRef: declining.customerRef,
      paymentRef: declining.paymentRef,
      amountCents: 10_000,
      reference: nextReference('CHG'),
      description: 'Vial request',
    });
    runBatch();
    const attempts = [
      { chargeTransactionId: chargeId, customerRef: stranger.customerRef },
      { chargeTransactionId: declined.transactionId ?? '', customerRef: declining.customerRef },
      { chargeTransactionId: '000000000000', customerRef: stranger.customerRef },
    ];
    for (const attempt of attempts) {
      const result = await gateway.refund({
        ...attempt,
        amountCents: 100,
        reference: nextReference('RFD'),
        description: 'Cancelled request',
      });
      expect(result).toMatchObject({ outcome: 'declined', reason: 'not_refundable' });
    }
    expect(await gateway.void({ transactionId: '000000000000' })).toMatchObject({
      outcome: 'declined',
      reason: 'not_voidable',
    });
  });

  it('finds a refund again by our reference: refunded with its amount, failed once voided, else not found', async () => {
    const { method, chargeId } = await chargedMethod('card');
    runBatch();
    const reference = nextReference('RFD');
    const lookup = () =>
      gateway.lookupRefund({ customerRef: method.customerRef, chargeTransactionId: chargeId, reference });
    expect(await lookup()).toEqual({ status: 'not_found' });
    const refund = await gateway.refund({
      chargeTransactionId: chargeId,
      customerRef: method.customerRef,
      amountCents: 2_575,
      reference,
      description: 'Cancelled request',
    });
    if (refund.outcome !== 'refunded') throw new Error(JSON.stringify(refund));
    expect(await lookup()).toEqual({
      status: 'refunded',
      transactionId: refund.transactionId,
      amountCents: 2_575,
    });
    expect(
      await gateway.lookupRefund({
        customerRef: method.customerRef,
        chargeTransactionId: chargeId,
        reference: 'RFDOTHER',
      }),
    ).toEqual({ status: 'not_found' });
    await gateway.void({ transactionId: refund.transactionId });
    expect(await lookup()).toEqual({ status: 'failed', transactionId: refund.transactionId });
  });

  it('reports a voided charge as failed to reconciliation: nothing was taken', async () => {
    const method = await savedMethod('card');
    const reference = nextReference('CHG');
    const charge = await gateway.charge({
      customerRef: method.customerRef,
      paymentRef: method.paymentRef,
      amountCents: 10_000,
      reference,
      description: 'Vial request',
    });
    await gateway.void({ transactionId: charge.transactionId ?? '' });
    expect(await gateway.lookupCharge({ customerRef: method.customerRef, reference })).toEqual({
      status: 'failed',
      transactionId: charge.transactionId,
    });
  });
});
