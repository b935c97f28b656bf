import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBusinessDay } from '../../../domain/cell-request-cancellation';
import { todayFor } from '../../../domain/client';
import { addDays, zonedInstant } from '../../../domain/dates';
import {
  clientActivities,
  clients,
  payments,
  physicianClients,
  physicians,
  refunds,
  vialRequests,
} from '../../db/schema';
import { validTuesday, weekdayFrom } from '../../testing/dates';
import {
  addReleaseClient,
  newCardFields,
  saveCardOnFile,
  tokenizeCard,
  vialRequestBody,
} from '../../testing/form-fixtures';
import { staffSession } from '../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * A physician requests cells for a client they act for (issue 23, as the agreement allows): the
 * same send_CellRequest, paid by the client's method on file or the physician's own; the client is
 * e-mailed at once with a link to object, and an objection within two business days cancels the
 * request at no cost, whatever the cancellation cutoff. The vials ship only after the window.
 */

const HOUR = 60 * 60_000;
const PHYSICIAN_EMAIL = 'maria.alvarez@example.com';
const CLINIC = 'receiving@hudson-ortho.example.com';
let t: TestApp;
let keySeq = 0;
const newKey = () => `physician-request-${++keySeq}`;

/** A Monday whose week, Monday to Friday, has no carrier holiday. */
function quietMonday(from: string): string {
  let monday = weekdayFrom(addDays(from, 1), 1);
  while (![0, 1, 2, 3, 4].every((d) => isBusinessDay(addDays(monday, d)))) monday = addDays(monday, 7);
  return monday;
}

let monday: string;
/** Moves the clock to a wall-clock hour of a day of the test week, Eastern time. */
function moveTo(day: string, hour: number) {
  const at = zonedInstant(day, hour, 'America/New_York').getTime();
  const now = t.clock.now().getTime();
  if (at < now) throw new Error('the clock only moves forward');
  t.clock.advance(at - now);
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '10000', ...MANY_PAYMENT_ATTEMPTS });
  monday = quietMonday(todayFor(t.clock.now()));
  moveTo(monday, 10);
});
afterAll(() => t.close());

/** A client of Dr. Maria Alvarez (PHY20001) with a consent and a Visa on file. */
async function physiciansClient(values: Partial<typeof clients.$inferInsert> = {}) {
  const client = await addReleaseClient(t.db, values);
  const [maria] = await t.db.select().from(physicians).where(eq(physicians.physicianActId, 'PHY20001'));
  await t.db.insert(physicianClients).values({ physicianId: maria?.id as string, clientId: client.id });
  const cookie = await t.signIn(client.actId);
  await saveCardOnFile(t, cookie, newKey());
  return { ...client, clientId: client.id, cookie };
}

const send = (cookie: string, payload: Record<string, unknown>, key = newKey()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/pay/send_CellRequest',
    headers: { cookie, 'idempotency-key': key },
    payload,
  });

const objectionView = (token: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/pay/get_CellRequestObjection?token=${encodeURIComponent(token)}`,
  });
const object = (token: string, note = '') =>
  t.app.inject({ method: 'POST', url: '/api/pay/object_CellRequest', payload: { token, note } });

async function objectionToken(email: string): Promise<string> {
  const mail = await t.mailTo(email);
  const invitation = mail.find((m) => m.subject === 'A stem cell request was placed for you');
  const token = invitation?.textBody.match(/\/object\/([A-Za-z0-9_.-]+)/)?.[1];
  if (!token) throw new Error(`no objection link in ${JSON.stringify(mail.map((m) => m.subject))}`);
  return token;
}

async function rowOf(id: string) {
  const [row] = await t.db.select().from(vialRequests).where(eq(vialRequests.id, id));
  if (!row) throw new Error('no request');
  return row;
}

const chargeOf = async (clientId: string) =>
  (
    await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.clientId, clientId), eq(payments.purpose, 'vial_request')))
  )[0];

async function bioVialsOf(clientId: string) {
  const [row] = await t.db
    .select({ bio: clients.bioInsuranceVialsAvailable })
    .from(clients)
    .where(eq(clients.id, clientId));
  return row?.bio;
}

describe('a physician requests cells for a client they act for', () => {
  it("paid by the client's card on file: the client gets the link to object, the physician and the clinic the summary", async () => {
    const c = await physiciansClient();
    const physician = await t.signInPhysician('PHY20001');
    const placed = await send(
      physician,
      vialRequestBody({ Client_id: c.actId, PaidBy: 'client', ShipmentDate: validTuesday(monday, 28) }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    // 1 vial $500.00, FedEx to New York $118.38, 3% card fee $18.55.
    expect(placed.json()).toMatchObject({
      amountChargedCents: 63_693,
      request: { orderedByPhysician: 'Dr. Maria Alvarez', status: 'requested' },
    });
    const row = await rowOf(placed.json().id);
    expect(row.physicianId).toBeTruthy();
    expect(row.paidByPhysician).toBe(false);
    // Placed Monday 10:00: the window runs to the end of Wednesday, Eastern time.
    expect(row.objectionDeadline?.toISOString()).toBe(
      zonedInstant(addDays(monday, 3), 0, 'America/New_York').toISOString(),
    );
    const charge = await chargeOf(c.clientId);
    expect(charge).toMatchObject({ totalCents: 63_693, paidByPhysicianId: null });

    const clientMail = await t.mailTo(c.email);
    // The client reads the request once, in the e-mail with the link to object.
    const subjects = clientMail.map((m) => m.subject);
    expect(subjects).toContain('A stem cell request was placed for you');
    expect(subjects).not.toContain('Client Portal: your stem cell request');
    const invitation =
      clientMail.find((m) => m.subject === 'A stem cell request was placed for you')?.textBody ?? '';
    expect(invitation).toContain('Dr. Maria Alvarez requested the release of 1 of your stem cell vial');
    expect(invitation).toContain('Total charged: $636.93');
    expect(invitation).toContain('you may object until the end of');
    expect(invitation).toMatch(/\/object\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/);
    expect((await t.mailTo(PHYSICIAN_EMAIL)).map((m) => m.subject)).toContain(
      'Client Portal: the stem cell request you placed',
    );
    expect((await t.mailTo(CLINIC)).map((m) => m.subject)).toContain('Client Portal: your stem cell request');
    const [activity] = await t.db
      .select()
      .from(clientActivities)
      .where(and(eq(clientActivities.clientId, c.clientId), eq(clientActivities.type, 'Dose Retrieval Fee')));
    expect(activity?.purchasedPlanName).toContain('requested by Dr. Maria Alvarez');

    // The link shows who ordered what, and that the client may still object.
    const view = await objectionView(await objectionToken(c.email));
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({
      clientFirstName: 'Test',
      physicianName: 'Dr. Maria Alvarez',
      vials: 1,
      totalCents: 63_693,
      paidBy: 'client',
      state: 'open',
      objection: null,
    });
  });

  it("paid by the physician's own new card: charged to the physician", async () => {
    const c = await physiciansClient();
    const physician = await t.signInPhysician('PHY20001');
    const card = newCardFields(t, await tokenizeCard(t, '4242424242424242'), {
      first: 'Maria',
      last: 'Alvarez',
    });
    const placed = await send(
      physician,
      vialRequestBody({
        Client_id: c.actId,
        PaidBy: 'physician',
        update_card: true,
        ...card,
        ShipmentDate: validTuesday(monday, 28),
      }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    expect((await rowOf(placed.json().id)).paidByPhysician).toBe(true);
    expect((await chargeOf(c.clientId))?.paidByPhysicianId).toBeTruthy();
    const view = await objectionView(await objectionToken(c.email));
    expect(view.json()).toMatchObject({ paidBy: 'physician', state: 'open' });
  });

  it("refuses a new card entered as the client's, and a client naming a physician payer", async () => {
    const c = await physiciansClient();
    const physician = await t.signInPhysician('PHY20001');
    const card = newCardFields(t, await tokenizeCard(t, '4242424242424242'));
    const typed = await send(
      physician,
      vialRequestBody({
        Client_id: c.actId,
        PaidBy: 'client',
        update_card: true,
        ...card,
        ShipmentDate: validTuesday(monday, 28),
      }),
    );
    expect(typed.statusCode).toBe(400);
    expect(typed.json().error).toBe(
      "Please pay with the client's card or bank account on file, or with your own: a new card or account entered here is yours.",
    );
    const own = await send(
      c.cookie,
      vialRequestBody({ PaidBy: 'physician', ShipmentDate: validTuesday(monday, 28) }),
    );
    expect(own.statusCode).toBe(400);
    expect(await chargeOf(c.clientId)).toBeUndefined();
  });

  it('a client the physician does not act for: the same 404 as an unknown client', async () => {
    const stranger = await addReleaseClient(t.db);
    const mine = await physiciansClient();
    const physician = await t.signInPhysician('PHY20001');
    const body = (id: string) => vialRequestBody({ Client_id: id, ShipmentDate: validTuesday(monday, 28) });
    const theirs = await send(physician, body(stranger.actId));
    const unknown = await send(physician, body('ACT99999'));
    expect([theirs.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(theirs.json()).toEqual(unknown.json());
    // Another physician, for this physician's client: 404 too.
    const chen = await t.signInPhysician('PHY20002');
    expect((await send(chen, body(mine.actId))).statusCode).toBe(404);
    expect(
      await t.db.select().from(vialRequests).where(eq(vialRequests.clientId, mine.clientId)),
    ).toHaveLength(0);
  });

  it("does not let the arrival date fall before the vials may ship after the client's window", async () => {
    const c = await physiciansClient({ bioInsuranceVialsAvailable: 1 });
    const physician = await t.signInPhysician('PHY20001');
    // Covered by a pre-paid vial, the client's own request could arrive Wednesday; the
    // physician's ships Thursday at the earliest and arrives Friday.
    const tooSoon = await send(
      physician,
      vialRequestBody({ Client_id: c.actId, ShipmentDate: addDays(monday, 2) }),
    );
    expect(tooSoon.statusCode).toBe(400);
    expect(tooSoon.json().fields.ShipmentDate).toBeTruthy();
    const dates = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_ShipmentDates?purpose=vialRequest&method=FedEx&from=${monday}&to=${addDays(monday, 13)}&NumberOfVials=1&Client_id=${c.actId}`,
      headers: { cookie: physician },
    });
    expect(dates.statusCode, dates.body).toBe(200);
    expect(dates.json().earliest).toBe(addDays(monday, 4));
  });
});

describe("the client's objection", () => {
  it('within two business days, after the cancellation cutoff: cancelled at no cost, the pre-paid vial given back, once', async () => {
    const c = await physiciansClient({ bioInsuranceVialsAvailable: 1 });
    const physician = await t.signInPhysician('PHY20001');
    const friday = addDays(monday, 4);
    const placed = await send(physician, vialRequestBody({ Client_id: c.actId, ShipmentDate: friday }));
    expect(placed.statusCode, placed.body).toBe(200);
    const id = placed.json().id as string;
    expect(await bioVialsOf(c.clientId)).toBe(0);
    const token = await objectionToken(c.email);

    // Wednesday 6 PM: past the policy's cutoff (2 PM two business days before Friday), within the window.
    moveTo(addDays(monday, 2), 18);
    const cookie = await t.signIn(c.actId);
    const before = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_CellRequest?id=${id}`,
      headers: { cookie },
    });
    expect(before.json().cancellation).toMatchObject({ state: 'open', phase: 'late', forfeitedVials: 1 });

    const objected = await object(token, 'I did not agree to this');
    expect(objected.statusCode, objected.body).toBe(200);
    // FedEx to New York $118.38 and its 3% card fee $3.55: all refunded.
    expect(objected.json()).toMatchObject({
      state: 'objected',
      message: 'Your objection was recorded: the request is cancelled and everything paid is refunded.',
      objection: { note: 'I did not agree to this', refundCents: 12_193, returnedVials: 1 },
    });
    expect(await bioVialsOf(c.clientId)).toBe(1);
    const charge = await chargeOf(c.clientId);
    const done = await t.db
      .select()
      .from(refunds)
      .where(eq(refunds.paymentId, charge?.id as string));
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ amountCents: 12_193 });

    const after = await t.app.inject({
      method: 'GET',
      url: `/api/pay/get_CellRequest?id=${id}`,
      headers: { cookie },
    });
    expect(after.json()).toMatchObject({
      status: 'cancelled',
      cancellation: {
        state: 'cancelled',
        by: 'objection',
        refundCents: 12_193,
        keptCents: 0,
        returnedVials: 1,
      },
    });
    expect(after.json().objectedAt).toBeTruthy();
    const [activity] = await t.db
      .select()
      .from(clientActivities)
      .where(and(eq(clientActivities.clientId, c.clientId), eq(clientActivities.type, 'Dose Retrieval Fee')));
    expect(activity?.stageName).toBe('Cancelled');
    const told = (await t.mailTo(PHYSICIAN_EMAIL)).find(
      (m) => m.subject === 'Your client objected to the stem cell request',
    );
    expect(told?.textBody).toContain("The client's note: I did not agree to this");
    expect((await t.mailTo(c.email)).map((m) => m.subject)).toContain('Your stem cell request is cancelled');

    // A second objection answers the first: nothing refunded twice, no vial given twice.
    const again = await object(token, 'again');
    expect(again.statusCode).toBe(200);
    expect(again.json().objection.note).toBe('I did not agree to this');
    expect(
      await t.db
        .select()
        .from(refunds)
        .where(eq(refunds.paymentId, charge?.id as string)),
    ).toHaveLength(1);
    expect(await bioVialsOf(c.clientId)).toBe(1);
  });

  it('after the window: refused with the reason, nothing cancelled', async () => {
    const c = await physiciansClient();
    const physician = await t.signInPhysician('PHY20001');
    const placed = await send(
      physician,
      vialRequestBody({ Client_id: c.actId, ShipmentDate: validTuesday(todayFor(t.clock.now()), 28) }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const token = await objectionToken(c.email);
    const row = await rowOf(placed.json().id);
    t.clock.advance((row.objectionDeadline as Date).getTime() - t.clock.now().getTime() + HOUR);
    const view = await objectionView(token);
    expect(view.json().state).toBe('closed');
    const late = await object(token);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatch(
      /^The time to object ended at the end of \d\d\/\d\d\/\d{4} \(Eastern time\)\. Please contact ACT to cancel the request under its cancellation policy\.$/,
    );
    expect((await rowOf(row.id)).status).toBe('requested');
  });

  it('a forged link reads as not valid', async () => {
    const response = await objectionView('e30.forged');
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('This objection link is not valid or has expired.');
    expect((await object('e30.forged')).statusCode).toBe(404);
  });
});

describe('shipping a physician request', () => {
  it("is refused until the client's window closes, then the label is made", async () => {
    const c = await physiciansClient();
    const physician = await t.signInPhysician('PHY20001');
    const placed = await send(
      physician,
      vialRequestBody({ Client_id: c.actId, ShipmentDate: validTuesday(todayFor(t.clock.now()), 28) }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const id = placed.json().id as string;
    const approved = await t.app.inject({
      method: 'POST',
      url: '/api/pay/set_CellRequestApproval',
      headers: { cookie: physician },
      payload: { id },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const staff = await staffSession(t);
    const label = {
      dryShipperId: 'DS-0042',
      contents: 'Cryopreserved human cells, 1 vial, in a liquid nitrogen dry shipper',
    };
    const staffPost = (action: string, payload: Record<string, unknown>, cookie = staff) =>
      t.app.inject({
        method: 'POST',
        url: `/api/staff/vial_requests/${id}/${action}`,
        headers: { cookie, 'idempotency-key': newKey() },
        payload,
      });
    const early = await staffPost('create_label', label);
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatch(
      /^The client may object to this request until the end of \d\d\/\d\d\/\d{4} \(Eastern time\): it ships only after that\.$/,
    );
    const typed = await staffPost('ship', { trackingNumber: '794600000001' });
    expect(typed.statusCode).toBe(409);
    expect(typed.json().error).toBe(early.json().error);

    const row = await rowOf(id);
    t.clock.advance((row.objectionDeadline as Date).getTime() - t.clock.now().getTime() + HOUR);
    const made = await staffPost('create_label', label, await staffSession(t));
    expect(made.statusCode, made.body).toBe(200);
    expect((await rowOf(id)).status).toBe('shipped');
  });
});
