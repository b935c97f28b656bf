import { describe, expect, it } from 'vitest';
import {
  activityTypeLabel,
  CELL_REQUEST_NOTICE,
  type ClientActivityRecord,
  NOT_APPLICABLE,
  PRACTITIONER_APPROVAL_SINCE,
  practitionerApproval,
  toClientActivityRow,
} from './client-activity';

function activity(overrides: Partial<ClientActivityRecord> = {}): ClientActivityRecord {
  return {
    Id: 'opp-1',
    ClientId: 'ACT-1001',
    ClientName: 'Jane Doe',
    Dose_Amount: 2,
    CloseDate: '2022-03-15',
    Type: 'Dose Retrieval Fee',
    Purchased_Plan_Name: 'Annual Storage Plan',
    StageName: 'Closed Won',
    Amount: null,
    ReceiptId: null,
    Cell_Request_Approved_By_Practitioner: true,
    ...overrides,
  };
}

describe('activityTypeLabel removes the word Fee from the type', () => {
  it.each([
    ['Dose Retrieval Fee', 'Dose Retrieval'],
    ['Annual Storage Fee', 'Annual Storage'],
    ['Fee Payment', 'Payment'],
    ['Processing Fee Refund', 'Processing Refund'],
    ['  Dose Retrieval Fee  ', 'Dose Retrieval'],
    ['Banking', 'Banking'],
    ['Feedback Call', 'Feedback Call'],
    ['Fees Adjustment', 'Fees Adjustment'],
    ['Coffee Order', 'Coffee Order'],
    ['Fee', ''],
    ['', ''],
  ])('%j is shown as %j', (type, label) => {
    expect(activityTypeLabel(type)).toBe(label);
  });
});

describe('practitionerApproval', () => {
  it('counts approvals from the day after 2021-12-01', () => {
    expect(PRACTITIONER_APPROVAL_SINCE).toBe('2021-12-01');
  });

  it.each([
    ['2021-12-01', true, 'NA', 'closed on 2021-12-01 itself: not strictly after'],
    ['2021-11-30', true, 'NA', 'closed the day before'],
    ['2020-06-01', false, 'NA', 'closed long before'],
    ['2021-12-02', true, 'approved', 'closed the day after, approved: a tick'],
    ['2021-12-02', false, 'not-approved', 'closed the day after, refused: a cross'],
    ['2021-12-02', null, 'not-approved', 'closed the day after, no answer yet: a cross'],
    ['2024-02-29', true, 'approved', 'closed on leap day, approved'],
    ['2025-01-01', false, 'not-approved', 'closed in a later year, refused'],
    [null, true, 'NA', 'not closed yet'],
  ] as const)('a Dose Retrieval Fee %s with approval %s shows %s (%s)', (closeDate, approved, mark, _why) => {
    const record = activity({ CloseDate: closeDate, Cell_Request_Approved_By_Practitioner: approved });
    expect(practitionerApproval(record)).toBe(mark);
  });

  it.each([
    ['Annual Storage Fee', 'another fee'],
    ['Dose Retrieval', 'the type without the word Fee'],
    ['dose retrieval fee', 'the type in another case'],
    ['Banking', 'a banking order'],
    ['', 'no type'],
  ])('shows NA for a %j row closed after 2021-12-01 (%s)', (type) => {
    for (const approved of [true, false, null]) {
      const record = activity({
        Type: type,
        CloseDate: '2022-03-15',
        Cell_Request_Approved_By_Practitioner: approved,
      });
      expect(practitionerApproval(record)).toBe('NA');
    }
  });

  it('applies to a Dose Retrieval Fee type with stray spaces', () => {
    expect(practitionerApproval(activity({ Type: ' Dose Retrieval Fee ' }))).toBe('approved');
  });
});

describe('toClientActivityRow', () => {
  it('shows a closed Dose Retrieval Fee with every column filled', () => {
    expect(toClientActivityRow(activity())).toEqual({
      id: 'opp-1',
      clientId: 'ACT-1001',
      clientName: 'Jane Doe',
      cellVialsOrdered: '2',
      date: '03/15/2022',
      type: 'Dose Retrieval',
      planPurchased: 'Annual Storage Plan',
      status: 'Paid',
      approval: 'approved',
      amount: 'NA',
      receiptId: null,
      cellRequestId: null,
    });
  });

  it('uses NA as the word for a column that does not apply', () => {
    expect(NOT_APPLICABLE).toBe('NA');
  });

  it('shows NA in every optional column of an empty record', () => {
    const row = toClientActivityRow(
      activity({
        Dose_Amount: null,
        CloseDate: null,
        Type: '',
        Purchased_Plan_Name: null,
        StageName: null,
        Cell_Request_Approved_By_Practitioner: null,
      }),
    );
    expect(row).toEqual({
      id: 'opp-1',
      clientId: 'ACT-1001',
      clientName: 'Jane Doe',
      cellVialsOrdered: 'NA',
      date: 'NA',
      type: 'NA',
      planPurchased: 'NA',
      status: 'NA',
      approval: 'NA',
      amount: 'NA',
      receiptId: null,
      cellRequestId: null,
    });
  });

  it.each([
    [null, 'NA'],
    [0, 'NA'],
    [-1, 'NA'],
    [1, '1'],
    [75, '75'],
  ])('shows %s vials ordered as %j', (doseAmount, shown) => {
    expect(toClientActivityRow(activity({ Dose_Amount: doseAmount })).cellVialsOrdered).toBe(shown);
  });

  it.each([
    ['2022-03-15', '03/15/2022'],
    ['2021-12-01', '12/01/2021'],
    ['2024-02-29', '02/29/2024'],
    ['2024-12-31', '12/31/2024'],
    ['2025-01-01', '01/01/2025'],
    [null, 'NA'],
    ['', 'NA'],
  ])('shows close date %j as %j (MM/DD/YYYY, the portal-wide date format)', (closeDate, shown) => {
    expect(toClientActivityRow(activity({ CloseDate: closeDate })).date).toBe(shown);
  });

  it.each([
    ['Gold Plan', 'Gold Plan'],
    ['  Gold Plan  ', 'Gold Plan'],
    ['   ', 'NA'],
    ['', 'NA'],
    [null, 'NA'],
  ])('shows plan %j as %j', (plan, shown) => {
    expect(toClientActivityRow(activity({ Purchased_Plan_Name: plan })).planPurchased).toBe(shown);
  });

  it.each([
    ['Closed Won', 'Paid'],
    ['closed lost', 'Not completed'],
    ['Shipped', 'Shipped'],
    ['Cancelled', 'Cancelled'],
    [' Pending ', 'Pending'],
    ['   ', 'NA'],
    ['', 'NA'],
    [null, 'NA'],
  ])("shows status %j as %j, in the client's words rather than CRM stages", (stage, shown) => {
    expect(toClientActivityRow(activity({ StageName: stage })).status).toBe(shown);
  });

  it.each([
    ['Dose Retrieval Fee', 'Dose Retrieval'],
    ['Annual Storage Fee', 'Annual Storage'],
    ['Fee', 'NA'],
    ['', 'NA'],
  ])('shows type %j as %j', (type, shown) => {
    expect(toClientActivityRow(activity({ Type: type })).type).toBe(shown);
  });

  it('shows NA approval for an annual storage row even when it carries an approval', () => {
    const row = toClientActivityRow(
      activity({ Type: 'Annual Storage Fee', Cell_Request_Approved_By_Practitioner: true }),
    );
    expect(row.approval).toBe('NA');
  });

  it('shows a cross for a Dose Retrieval Fee closed after 2021-12-01 and not approved', () => {
    const row = toClientActivityRow(
      activity({ CloseDate: '2021-12-02', Cell_Request_Approved_By_Practitioner: false }),
    );
    expect(row.approval).toBe('not-approved');
  });
});

describe('a request still waiting for the approval', () => {
  it.each([
    ['Requested', 'pending'],
    ['Prospecting', 'pending'],
    ['Needs Analysis', 'pending'],
    ['Cancelled', 'not-approved'],
    ['Shipped', 'not-approved'],
    ['Closed Won', 'not-approved'],
    [null, 'not-approved'],
  ] as const)('at stage %j, not approved, reads %s', (stage, mark) => {
    const record = activity({
      CloseDate: '2026-11-20',
      StageName: stage,
      Cell_Request_Approved_By_Practitioner: false,
    });
    expect(practitionerApproval(record)).toBe(mark);
  });

  it('links the row to its request when the server names one', () => {
    expect(toClientActivityRow(activity({ CellRequestId: 'req-1' })).cellRequestId).toBe('req-1');
    expect(toClientActivityRow(activity()).cellRequestId).toBeNull();
  });
});

describe('CELL_REQUEST_NOTICE', () => {
  it('states the three weeks notice for Cell Request Orders', () => {
    expect(CELL_REQUEST_NOTICE).toBe(
      '3 weeks notice is required on Cell Request Orders if no cells are available for immediate use.',
    );
  });
});

describe('the Amount column', () => {
  it.each([
    [null, 'NA'],
    ['0.00', '$0.00'],
    ['2575.00', '$2,575.00'],
    ['700.01', '$700.01'],
    ['410.97', '$410.97'],
  ])('shows %j as %j', (amount, shown) => {
    expect(toClientActivityRow(activity({ Amount: amount })).amount).toBe(shown);
  });
});
