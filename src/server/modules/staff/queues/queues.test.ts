import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDateOf, isoToUsDate } from '../../../../domain/dates';
import { staffQueueMessages as m } from '../../../../domain/staff-queues';
import {
  auditEvents,
  clientActivities,
  clients,
  formSubmissions,
  outboxMessages,
  physicianClients,
  physicians,
  sampleSubmissions,
} from '../../../db/schema';
import { addClient, labReportPdf, pdfDataUrl } from '../../../testing/form-fixtures';
import { staffLevelMember, staffSession } from '../../../testing/staff-fixtures';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../../../testing/test-app';

/**
 * Two work queues of the back office (issue 11): new samples paid by check, and uploaded lab
 * reports. Only staff reach them; each action happens once, and of two staff members at once,
 * one wins and the other is told.
 */
let t: TestApp;
let admin: string;
let member: string;
let seq = 0;

async function post(url: string, cookie: string | undefined, payload: object, headers: object = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
}
async function get(url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

/** Dr. Alvarez sends a new bone marrow sample with a check in the shipment; the client gets a password. */
async function newSampleByCheck() {
  seq += 1;
  const physician = await t.signInPhysician('PHY20001');
  const email = `check.client${seq}@example.com`;
  const sent = await post(
    '/api/pay/send_ProcessData',
    physician,
    {
      FirstName: 'Rita',
      LastName: `Check${seq}`,
      Dob: '04/12/1979',
      Ship_date: '12/31/2049',
      Email: email,
      PhoneNumber: '3055550100',
      Address: '200 Biscayne Boulevard',
      City: 'Miami',
      State: 'FL',
      zipcode: '33131',
      Country: 'United States',
      Tissue: 'Bone_marrow',
      CreditCard: false,
      BillingName: 'Clinic Accounts',
      BillingEmail: 'accounts@clinic.example.com',
    },
    { 'idempotency-key': `queue-sample-${seq}-${Date.now()}` },
  );
  expect(sent.statusCode, sent.body).toBe(200);
  const { ClientId, clientRecordId } = sent.json<{ ClientId: string; clientRecordId: string }>();
  const [jane] = await t.db.select().from(clients).where(eq(clients.clientActId, 'ACT10001'));
  await t.db.update(clients).set({ passwordHash: jane?.passwordHash }).where(eq(clients.id, clientRecordId));
  const [sample] = await t.db
    .select()
    .from(sampleSubmissions)
    .where(eq(sampleSubmissions.clientId, clientRecordId));
  return { actId: ClientId, clientId: clientRecordId, email, sampleId: sample?.id as string };
}

const today = () => isoToUsDate(isoDateOf(t.clock.now()));

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
  admin = await staffSession(t);
  member = await staffLevelMember(t, admin, 'desk.two@bank.example.com', 'Desk Two');
});
afterAll(() => t.close());

describe('staff work queues: who may reach them', () => {
  const routes: Array<['GET' | 'POST', string]> = [
    ['GET', '/api/staff/sample_checks'],
    ['POST', '/api/staff/record_check'],
    ['GET', '/api/staff/lab_reports'],
    ['POST', '/api/staff/accept_lab_report'],
    ['POST', '/api/staff/reject_lab_report'],
  ];
  it.each(routes)('%s %s answers 404 to a client and to a physician, 401 to nobody', async (method, url) => {
    const client = await t.signIn('ACT10001');
    const physician = await t.signInPhysician('PHY20001');
    for (const cookie of [client, physician]) {
      const response = await t.app.inject({
        method,
        url,
        headers: { cookie },
        payload: method === 'POST' ? {} : undefined,
      });
      expect(response.statusCode, response.body).toBe(404);
    }
    const nobody = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(nobody.statusCode).toBe(401);
  });
});

describe('new samples paid by check', () => {
  it('lists the sample, refuses a wrong check, records the right one once, and opens the consent', async () => {
    const sample = await newSampleByCheck();
    const client = await t.signIn(sample.actId);
    const before = await get('/api/pay/get_FormDocuments', client);
    expect(before.json().initialProcessingFormCompleted).toBe(false);

    const queue = await get('/api/staff/sample_checks', admin);
    expect(queue.statusCode).toBe(200);
    const row = queue
      .json<{ samples: Array<{ sampleId: string; amountDueCents: number }> }>()
      .samples.find((s) => s.sampleId === sample.sampleId);
    expect(row?.amountDueCents).toBe(300_000);

    const empty = await post('/api/staff/record_check', admin, {
      sampleId: sample.sampleId,
      checkNumber: '',
      checkAmount: '',
      checkDate: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({
      checkNumber: m.checkNumberRequired,
      checkAmount: m.checkAmountRequired,
      checkDate: m.checkDateRequired,
    });
    const wrong = await post('/api/staff/record_check', admin, {
      sampleId: sample.sampleId,
      checkNumber: '12a',
      checkAmount: '2500.00',
      checkDate: '12/31/2099',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({
      checkNumber: m.checkNumberInvalid,
      checkAmount: m.checkAmountMismatch(300_000),
      checkDate: m.checkDateFuture,
    });
    expect((await get('/api/pay/get_FormDocuments', client)).json().initialProcessingFormCompleted).toBe(
      false,
    );

    const check = {
      sampleId: sample.sampleId,
      checkNumber: '10452',
      checkAmount: '3,000.00',
      checkDate: today(),
    };
    const first = await post('/api/staff/record_check', admin, check);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(m.checkRecorded);
    // A double click: the same answer, nothing recorded twice.
    const again = await post('/api/staff/record_check', admin, check);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().recordedAt).toBe(first.json().recordedAt);
    // Another staff member, a moment later: told who did it.
    const other = await post('/api/staff/record_check', member, { ...check, checkNumber: '10453' });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatch(/^This check was already recorded by Demo Admin on /);

    const activities = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, sample.clientId));
    expect(activities.filter((a) => a.type === 'Initial Processing')).toHaveLength(1);
    expect(activities[0]?.amountCents).toBe(300_000);
    const mails = (await t.mailTo(sample.email)).filter((mail) =>
      /payment for your initial processing/.test(mail.subject),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.textBody).toContain('check no. 10452 of $3,000.00');

    // The consent page's call now says the consent is open.
    expect((await get('/api/pay/get_FormDocuments', client)).json().initialProcessingFormCompleted).toBe(
      true,
    );
    const after = await get('/api/staff/sample_checks', admin);
    expect(after.json().samples.some((s: { sampleId: string }) => s.sampleId === sample.sampleId)).toBe(
      false,
    );
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.clientId, sample.clientId), eq(auditEvents.action, 'record-check')));
    expect(audit.length).toBeGreaterThanOrEqual(1);
    expect(audit[0]?.actorRole).toBe('staff');
    // Each recorded answer keeps the check's amount; a refused one leaves no row.
    expect(audit.map((row) => row.amountCents)).toEqual(audit.map(() => 300_000));
  });

  it('of two staff members recording the same check at once, one wins and the other is told', async () => {
    const sample = await newSampleByCheck();
    const check = { sampleId: sample.sampleId, checkNumber: '777', checkAmount: '3000', checkDate: today() };
    const answers = await Promise.all([
      post('/api/staff/record_check', admin, check),
      post('/api/staff/record_check', member, check),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const activities = await t.db
      .select()
      .from(clientActivities)
      .where(eq(clientActivities.clientId, sample.clientId));
    expect(activities).toHaveLength(1);
  });

  it('answers 404 for a sample that does not exist or was paid by card', async () => {
    const missing = await post('/api/staff/record_check', admin, {
      sampleId: '00000000-0000-4000-8000-000000000000',
      checkNumber: '1',
      checkAmount: '1',
      checkDate: today(),
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('lab reports', () => {
  async function upload(cookie: string, key: string, text = 'Panel: negative') {
    const pdf = await labReportPdf(text);
    const response = await post(
      '/api/pay/set_DiseaseData',
      cookie,
      {
        submissionOption: 'Local Lab Submission',
        agree: true,
        lab_report_file: pdfDataUrl(pdf),
        lab_report_name: 'panel.pdf',
      },
      { 'idempotency-key': key },
    );
    expect(response.statusCode, response.body).toBe(200);
    return pdf;
  }

  it('lists the upload, lets staff read it, and a rejection opens the screening again with the reason', async () => {
    const person = await addClient(t.db);
    const client = await t.signIn(person.actId);
    const pdf = await upload(client, `lab-${Date.now()}-1`);

    const queue = await get('/api/staff/lab_reports', admin);
    const row = queue
      .json<{
        reports: Array<{
          submissionId: string;
          documentId: string;
          clientActId: string;
          submittedBy: string;
        }>;
      }>()
      .reports.find((r) => r.clientActId === person.actId);
    if (!row) throw new Error('the upload is not in the queue');
    expect(row.submittedBy).toBe('Client');
    const download = await get(`/api/staff/documents/${row.documentId}`, admin);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);

    const noReason = await post('/api/staff/reject_lab_report', admin, {
      submissionId: row.submissionId,
      reason: '  ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields).toEqual({ reason: m.reasonRequired });

    const reason = 'The report does not show the HIV-1/2 result. Please ask your lab for the full panel.';
    const rejected = await post('/api/staff/reject_lab_report', admin, {
      submissionId: row.submissionId,
      reason,
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().outcome).toBe('rejected');
    const again = await post('/api/staff/reject_lab_report', admin, {
      submissionId: row.submissionId,
      reason,
    });
    expect(again.statusCode).toBe(200);
    const accept = await post('/api/staff/accept_lab_report', member, { submissionId: row.submissionId });
    expect(accept.statusCode).toBe(409);
    expect(accept.json().error).toMatch(/^This lab report was already rejected by Demo Admin on /);

    const forms = await get('/api/pay/get_FormDocuments', client);
    expect(forms.json().infectiousDisease).toMatchObject({ completed: false, rejection: { reason } });
    const mails = (await t.mailTo(person.email)).filter((mail) => /screening again/.test(mail.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.textBody).toContain(reason);
    // No physician, so no physician's e-mail: the client's alone.
    const physicianMail = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.dedupeKey, `lab-report:${row.submissionId}:rejected:physician`));
    expect(physicianMail).toHaveLength(0);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.clientId, person.id), eq(auditEvents.action, 'review-lab-report')));
    expect(audit.length).toBeGreaterThanOrEqual(1);

    // The client sends a new report: it is in the queue again; accepted, the form is done.
    await upload(client, `lab-${Date.now()}-2`, 'Full panel: negative');
    const forms2 = await get('/api/pay/get_FormDocuments', client);
    expect(forms2.json().infectiousDisease).toMatchObject({ completed: true, rejection: null });
    const second = (await get('/api/staff/lab_reports', admin))
      .json<{ reports: Array<{ submissionId: string; clientActId: string }> }>()
      .reports.find((r) => r.clientActId === person.actId);
    if (!second) throw new Error('the new upload is not in the queue');
    expect(second.submissionId).not.toBe(row.submissionId);
    const [first, other] = await Promise.all([
      post('/api/staff/accept_lab_report', admin, { submissionId: second.submissionId }),
      post('/api/staff/reject_lab_report', member, { submissionId: second.submissionId, reason: 'Blurry' }),
    ]);
    expect([first.statusCode, other.statusCode].sort()).toEqual([200, 409]);
    const rows = await t.db.select().from(formSubmissions).where(eq(formSubmissions.clientId, person.id));
    expect(rows).toHaveLength(2);
    const [still] = await t.db.select().from(clients).where(eq(clients.id, person.id));
    expect(still?.infectiousDiseaseFormCompleted).toBe(first.statusCode === 200);
    const gone = (await get('/api/staff/lab_reports', admin)).json<{
      reports: Array<{ clientActId: string }>;
    }>();
    expect(gone.reports.some((r) => r.clientActId === person.actId)).toBe(false);
  });

  it("a rejection e-mails the client's physician too, once", async () => {
    const [physician] = await t.db
      .insert(physicians)
      .values({
        physicianActId: 'PHY29001',
        firstName: 'Nora',
        lastName: 'Labwell',
        email: 'nora.labwell@clinic.example.com',
      })
      .returning();
    if (!physician) throw new Error('the test physician was not created');
    const person = await addClient(t.db);
    await t.db.insert(physicianClients).values({ physicianId: physician.id, clientId: person.id });
    const client = await t.signIn(person.actId);
    await upload(client, `lab-${Date.now()}-physician`);
    const row = (await get('/api/staff/lab_reports', admin))
      .json<{ reports: Array<{ submissionId: string; clientActId: string }> }>()
      .reports.find((r) => r.clientActId === person.actId);
    if (!row) throw new Error('the upload is not in the queue');

    const reason = 'The report is for another patient.';
    const rejected = await post('/api/staff/reject_lab_report', admin, {
      submissionId: row.submissionId,
      reason,
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    // The same decision again answers the same and sends nothing more.
    const again = await post('/api/staff/reject_lab_report', admin, {
      submissionId: row.submissionId,
      reason,
    });
    expect(again.statusCode, again.body).toBe(200);

    const toPhysician = await t.mailTo(physician.email);
    expect(toPhysician).toHaveLength(1);
    expect(toPhysician[0]?.subject).toMatch(
      new RegExp(
        `^Physician Portal: the lab report of Test Client\\d+ \\(${person.actId}\\) was not accepted$`,
      ),
    );
    expect(toPhysician[0]?.textBody).toContain('Dear Dr. Labwell,');
    expect(toPhysician[0]?.textBody).toContain(`Client ID ${person.actId}`);
    expect(toPhysician[0]?.textBody).toContain(reason);
    const toClient = (await t.mailTo(person.email)).filter((mail) => /screening again/.test(mail.subject));
    expect(toClient).toHaveLength(1);
  });
});
