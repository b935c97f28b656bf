import { describe, expect, it } from 'vitest';
import { authMessages } from './auth';
import {
  annualStoragePaidUntilLabel,
  CLIENT_INFORMATION_UPDATED,
  type ClientInformation,
  type ClientRecord,
  clientAlertItems,
  clientInformationFieldOrder,
  clientInformationMessages,
  clientInformationSchema,
  clientInformationShape,
  formsIncomplete,
  todayFor,
  tooLong,
} from './client';
import { CELL_REQUEST_NOTICE } from './client-activity';

const TODAY = '2025-06-15';

const validInformation: ClientInformation = {
  firstName: 'Jane',
  lastName: 'Doe',
  clientDob: '06/15/1980',
  email: 'jane.doe@example.com',
  phone: '3055550100',
  street: '1 Ocean Drive',
  city: 'Miami',
  state: 'FL',
  zip: '33139',
  country: 'USA',
  clinicName: 'Sunrise Regenerative Clinic',
  preferredAddressContactFullName: 'Dr. Ann Lee',
  shippingClinicEmail: 'shipping@sunrise-clinic.example',
  preferredAddressPhone: '3055550199',
  preferredAddressStreet: '200 Clinic Way',
  preferredAddressCity: 'Miami',
  preferredAddressState: 'FL',
  preferredAddressZip: '33101',
  preferredAddressCountry: 'USA',
};

type Field = keyof ClientInformation;

/** The first message of each failing field: what the form and the server show. */
function failures(input: unknown, today = TODAY): Record<string, string> {
  const result = clientInformationSchema(today).safeParse(input);
  if (result.success) return {};
  const messages: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    if (!(field in messages)) messages[field] = issue.message;
  }
  return messages;
}

function withField(field: Field, value: unknown): Record<string, unknown> {
  return { ...validInformation, [field]: value };
}

function withoutField(field: Field): Record<string, unknown> {
  return Object.fromEntries(Object.entries(validInformation).filter(([key]) => key !== field));
}

/** Every message the schema can give is listed in one of these tables; a test checks none is left out. */
const requiredMessages: Array<[Field, string]> = [
  ['firstName', 'Cannot be empty'],
  ['lastName', 'Cannot be empty'],
  ['clientDob', 'Please enter Birthdate'],
  ['email', 'Please enter email'],
  ['phone', 'Please enter phone'],
  ['street', 'Please enter street'],
  ['city', 'Please enter city'],
  ['state', 'Please select state'],
  ['zip', 'Please enter zipcode'],
  ['country', 'Please enter country'],
  ['clinicName', 'Please enter clinic name'],
  ['preferredAddressContactFullName', 'Please enter clinic contact person name'],
  ['shippingClinicEmail', 'Please enter shipping email'],
  ['preferredAddressPhone', 'Please enter phone number'],
  ['preferredAddressStreet', 'Please enter Street'],
  ['preferredAddressCity', 'Please enter city'],
  ['preferredAddressState', 'Please select state'],
  ['preferredAddressZip', 'Please enter zipcode'],
  ['preferredAddressCountry', 'Please enter country'],
];

const lengthLimits: Array<[Field, number, string]> = [
  ['firstName', 80, 'Must be at most 80 characters'],
  ['lastName', 80, 'Must be at most 80 characters'],
  ['street', 200, 'Must be at most 200 characters'],
  ['city', 80, 'Must be at most 80 characters'],
  ['country', 80, 'Must be at most 80 characters'],
  ['clinicName', 100, 'Clinic name must be at most 100 characters'],
  ['preferredAddressContactFullName', 120, 'Must be at most 120 characters'],
  ['preferredAddressStreet', 200, 'Must be at most 200 characters'],
  ['preferredAddressCity', 80, 'Must be at most 80 characters'],
  ['preferredAddressCountry', 80, 'Must be at most 80 characters'],
];

const phoneRefusals: Array<[Field, string, string, string]> = [
  ['phone', '12', 'Please enter a 10-digit phone number', 'two digits'],
  ['phone', '305-555-014', 'Please enter a 10-digit phone number', 'nine digits'],
  ['phone', '+44 20 7946 0958', 'Please enter a 10-digit phone number', 'not a US number'],
  ['phone', '305555010O', 'Please insert only number', 'the letter O for a zero'],
  ['phone', 'call me', 'Please insert only number', 'letters only'],
  ['phone', '３０５５５５０１００', 'Please insert only number', 'full-width digits'],
  ['preferredAddressPhone', '12', 'Please enter a 10-digit phone number', 'two digits'],
  [
    'preferredAddressPhone',
    '3055550l99',
    'Please insert only number, must be numeric',
    'the letter l for a one',
  ],
  ['preferredAddressPhone', 'ext 12', 'Please insert only number, must be numeric', 'letters'],
];

const zipRefusals: Array<[Field, string]> = [
  ['zip', 'abc'],
  ['zip', '3313'],
  ['zip', '33131-12'],
  ['zip', 'K1A 0B1'],
  ['preferredAddressZip', 'abc'],
  ['preferredAddressZip', '331011'],
];

const emailRefusals: Array<[Field, string, string, string]> = [
  ['email', 'jane.doe', 'Invalid email.', 'no @'],
  ['email', 'jane@example', 'Invalid email.', 'no dot in the domain'],
  ['email', 'jane doe@example.com', 'Invalid email.', 'a space inside'],
  ['email', '@example.com', 'Invalid email.', 'nothing before the @'],
  ['email', 'jane@@example.com', 'Invalid email.', 'two @'],
  ['email', `${'a'.repeat(243)}@example.com`, 'Must be at most 254 characters', '255 characters'],
  ['shippingClinicEmail', 'shipping', 'Invalid email.', 'no @'],
  ['shippingClinicEmail', 'shipping@clinic', 'Invalid email.', 'no dot in the domain'],
  ['shippingClinicEmail', 'ship ping@clinic.example', 'Invalid email.', 'a space inside'],
  [
    'shippingClinicEmail',
    `${'a'.repeat(243)}@example.com`,
    'Must be at most 254 characters',
    '255 characters',
  ],
];

const stateRefusals: Array<[string, string]> = [
  ['XX', 'not a state code'],
  ['PR', 'a territory, not one of the 50 states and DC'],
  ['ny', 'a lower-case code'],
  ['New York', 'the name instead of the code'],
  ['N Y', 'a broken code'],
];

const dateOfBirthCases: Array<[string, string, string | null, string]> = [
  ['06/15/2025', TODAY, null, 'today is accepted'],
  ['06/16/2025', TODAY, 'Birthdate cannot be in the future', 'tomorrow is in the future'],
  [
    '01/01/2026',
    '2025-12-31',
    'Birthdate cannot be in the future',
    'New Year’s Day seen from New Year’s Eve',
  ],
  ['02/29/2024', TODAY, null, 'leap day of a leap year is accepted'],
  ['02/29/2023', TODAY, 'Please enter Birthdate', 'Feb 29 of a common year is not a date'],
  ['04/31/1980', TODAY, 'Please enter Birthdate', 'April has 30 days'],
  ['13/01/1980', TODAY, 'Please enter Birthdate', 'month 13'],
  ['01/01/1900', TODAY, null, 'the first day of 1900 is accepted'],
  ['12/31/1899', TODAY, 'Please enter Birthdate', 'a year before 1900'],
  ['12/31/2049', '2051-01-01', null, 'the last day of 2049 is accepted once past'],
  ['01/01/2050', '2051-01-01', 'Please enter Birthdate', 'year 2050 is refused even when past'],
  ['01/01/2050', TODAY, 'Please enter Birthdate', 'year 2050 is refused as invalid, not as future'],
  ['1980-06-15', TODAY, 'Please enter Birthdate', 'the ISO format instead of MM/DD/YYYY'],
  ['6/15/1980', TODAY, 'Please enter Birthdate', 'missing leading zero'],
  ['06-15-1980', TODAY, 'Please enter Birthdate', 'dashes instead of slashes'],
  ['06/15/80', TODAY, 'Please enter Birthdate', 'a two-digit year'],
  ['yesterday', TODAY, 'Please enter Birthdate', 'words'],
];

describe('clientInformationSchema', () => {
  it('accepts a complete Client Information form unchanged', () => {
    expect(clientInformationSchema(TODAY).parse(validInformation)).toEqual(validInformation);
  });

  describe.each(requiredMessages)('%s is required', (field, message) => {
    it.each([
      ['an empty string', ''],
      ['spaces only', '   '],
      ['tabs and a line break only', '\t\n'],
      ['null', null],
      ['a number instead of text', 12345],
    ])(`refuses ${field} given %s with "${message}"`, (_label, value) => {
      expect(failures(withField(field, value))).toEqual({ [field]: message });
    });

    it(`refuses a form without ${field} with "${message}"`, () => {
      expect(failures(withoutField(field))).toEqual({ [field]: message });
    });
  });

  describe.each(lengthLimits)('%s holds at most %i characters', (field, max, message) => {
    it(`accepts ${max} characters`, () => {
      const value = 'x'.repeat(max);
      expect(clientInformationSchema(TODAY).parse(withField(field, value))[field]).toBe(value);
    });

    it(`refuses ${max + 1} characters with "${message}"`, () => {
      expect(failures(withField(field, 'x'.repeat(max + 1)))).toEqual({ [field]: message });
    });

    it(`counts ${max} characters after trimming the spaces around them`, () => {
      const value = 'x'.repeat(max);
      expect(clientInformationSchema(TODAY).parse(withField(field, `  ${value}  `))[field]).toBe(value);
    });
  });

  it('accepts an email of exactly 254 characters', () => {
    const email = `${'a'.repeat(242)}@example.com`;
    expect(email).toHaveLength(254);
    expect(clientInformationSchema(TODAY).parse(withField('email', email)).email).toBe(email);
  });

  it.each(phoneRefusals)('refuses %s %j with "%s" (%s)', (field, value, message) => {
    expect(failures(withField(field, value))).toEqual({ [field]: message });
  });

  it.each([
    ['phone', '(305) 555-0142', '3055550142'],
    ['phone', '305-555-0142', '3055550142'],
    ['phone', '305.555.0142', '3055550142'],
    ['phone', '+1 305 555 0142', '3055550142'],
    ['phone', ' 3055550142 ', '3055550142'],
    ['preferredAddressPhone', '(305) 555-0199', '3055550199'],
    ['preferredAddressPhone', '+1 (305) 555-0199', '3055550199'],
  ] as Array<[Field, string, string]>)('accepts %s %j and keeps its digits %j', (field, value, digits) => {
    expect(clientInformationSchema(TODAY).parse(withField(field, value))[field]).toBe(digits);
  });

  it.each(zipRefusals)('refuses the %s %j as not a US zip code', (field, value) => {
    expect(failures(withField(field, value))).toEqual({
      [field]: 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)',
    });
  });

  it.each([
    ['zip', '33139-1234'],
    ['preferredAddressZip', '33101-0001'],
  ] as Array<[Field, string]>)('accepts the %s %j in ZIP+4 form', (field, value) => {
    expect(clientInformationSchema(TODAY).parse(withField(field, value))[field]).toBe(value);
  });

  it.each(emailRefusals)('refuses %s %j with "%s" (%s)', (field, value, message) => {
    expect(failures(withField(field, value))).toEqual({ [field]: message });
  });

  it('trims the spaces around an email address', () => {
    const parsed = clientInformationSchema(TODAY).parse(
      withField('shippingClinicEmail', ' lab@clinic.example '),
    );
    expect(parsed.shippingClinicEmail).toBe('lab@clinic.example');
  });

  it.each(stateRefusals)(
    'refuses the preferred shipping state %j with "Please select a state from the list" (%s)',
    (state) => {
      expect(failures(withField('preferredAddressState', state))).toEqual({
        preferredAddressState: 'Please select a state from the list',
      });
    },
  );

  it.each(['DC', 'AL', 'NY', 'WY'])('accepts the preferred shipping state %s from the list', (state) => {
    expect(
      clientInformationSchema(TODAY).parse(withField('preferredAddressState', state)).preferredAddressState,
    ).toBe(state);
  });

  it('trims a preferred shipping state code before looking it up', () => {
    const parsed = clientInformationSchema(TODAY).parse(withField('preferredAddressState', ' NY '));
    expect(parsed.preferredAddressState).toBe('NY');
  });

  it.each(stateRefusals)(
    'refuses the client’s own state %j with "Please select a state from the list" (%s)',
    (state) => {
      expect(failures(withField('state', state))).toEqual({ state: 'Please select a state from the list' });
    },
  );

  describe('a client living abroad (the personal Country is not the United States)', () => {
    const abroad = { ...validInformation, country: 'Canada', state: 'Ontario', zip: 'K1A 0B1' };

    it('saves a province and a postal code as typed, trimmed', () => {
      const parsed = clientInformationSchema(TODAY).parse({
        ...abroad,
        state: ' Ontario ',
        zip: ' K1A 0B1 ',
      });
      expect(parsed).toEqual(abroad);
    });

    it.each([
      ['United Kingdom', 'Greater London', 'SW1A 1AA'],
      ['Brazil', 'São Paulo', '01310-100'],
      ['Germany', 'Berlin', '10117'],
    ])('saves an address in %s (%s, %s)', (country, state, zip) => {
      const information = { ...validInformation, country, state, zip };
      expect(clientInformationSchema(TODAY).parse(information)).toEqual(information);
    });

    it('still requires the state or province and the postal code', () => {
      expect(failures({ ...abroad, state: ' ', zip: '' })).toEqual({
        state: 'Please select state',
        zip: 'Please enter zipcode',
      });
    });

    it('holds a province of at most 80 characters and a postal code of at most 20', () => {
      expect(failures({ ...abroad, state: 'x'.repeat(80), zip: 'x'.repeat(20) })).toEqual({});
      expect(failures({ ...abroad, state: 'x'.repeat(81), zip: 'x'.repeat(21) })).toEqual({
        state: 'Must be at most 80 characters',
        zip: 'Must be at most 20 characters',
      });
    });

    it('keeps the Preferred Shipping address in the United States: a state from the list, a US zip', () => {
      expect(
        failures({ ...abroad, preferredAddressState: 'Ontario', preferredAddressZip: 'K1A 0B1' }),
      ).toEqual({
        preferredAddressState: 'Please select a state from the list',
        preferredAddressZip: 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)',
      });
    });
  });

  it.each([
    ['United States', 'Ontario', 'K1A 0B1'],
    ['U.S.A.', 'ON', '1234'],
    [' us ', 'Florida', '33139-12'],
  ])('refuses, for the Country %j, the state %j and the zip %j', (country, state, zip) => {
    expect(failures({ ...validInformation, country, state, zip })).toEqual({
      state: 'Please select a state from the list',
      zip: 'Please enter a 5-digit zip code (or ZIP+4, such as 33323-1234)',
    });
  });

  it.each(dateOfBirthCases)('birthdate %j with today %s gives %j (%s)', (clientDob, today, message) => {
    const expected = message === null ? {} : { clientDob: message };
    expect(failures(withField('clientDob', clientDob), today)).toEqual(expected);
  });

  it('trims the spaces around a birthdate and keeps it as MM/DD/YYYY', () => {
    const parsed = clientInformationSchema(TODAY).parse(withField('clientDob', ' 02/29/2024 '));
    expect(parsed.clientDob).toBe('02/29/2024');
  });

  it('asks a today function each time, so a schema built yesterday does not refuse a birth today', () => {
    let today = '2025-06-14';
    const schema = clientInformationSchema(() => today);
    const bornToday = withField('clientDob', '06/15/2025');
    expect(schema.safeParse(bornToday).success).toBe(false);
    today = '2025-06-15';
    expect(schema.safeParse(bornToday).success).toBe(true);
  });

  it('strips fields the form does not edit, so an update cannot touch flags, balances or identity', () => {
    const parsed = clientInformationSchema(TODAY).parse({
      ...validInformation,
      clientACTId: 'ACT-9999',
      clientRecordId: 'rec-9999',
      hasOverDuePayments: false,
      totalAnnualOverdueAmount: 0,
      annualStoragePaidUntil: '2099-12-31',
      creditCardNumber: '4111111111111111',
      clientConsentFormCompleted: true,
      infectiousDiseaseFormCompleted: true,
      freeBioInsuranceVialsAvailble: 75,
    });
    expect(parsed).toEqual(validInformation);
    expect(Object.keys(parsed).sort()).toEqual(Object.keys(validInformation).sort());
  });

  it('trims the spaces around every text field', () => {
    const padded = Object.fromEntries(
      Object.entries(validInformation).map(([key, value]) => [key, `  ${value}  `]),
    );
    expect(clientInformationSchema(TODAY).parse(padded)).toEqual(validInformation);
  });

  it('names every failing field at once, for a form left blank (the shipping block then optional)', () => {
    const blank = Object.fromEntries(Object.keys(validInformation).map((key) => [key, '']));
    expect(failures(blank)).toEqual({
      firstName: 'Cannot be empty',
      lastName: 'Cannot be empty',
      clientDob: 'Please enter Birthdate',
      email: 'Please enter email',
      phone: 'Please enter phone',
      street: 'Please enter street',
      city: 'Please enter city',
      state: 'Please select state',
      zip: 'Please enter zipcode',
      country: 'Please enter country',
    });
  });

  it('has a test for every message it can give', () => {
    const tested = new Set<string>([
      ...requiredMessages.map(([, message]) => message),
      ...lengthLimits.map(([, , message]) => message),
      ...phoneRefusals.map(([, , message]) => message),
      ...emailRefusals.map(([, , message]) => message),
      'Please select a state from the list',
      'Nothing to save: send the fields of Personal Details or of Preferred Shipping to Medical Professional',
      ...dateOfBirthCases.flatMap(([, , message]) => (message === null ? [] : [message])),
    ]);
    for (const message of Object.values(clientInformationMessages)) expect(tested).toContain(message);
  });
});

const personalDetails = {
  firstName: 'Jane',
  lastName: 'Doe',
  clientDob: '06/15/1980',
  email: 'jane.doe@example.com',
  phone: '(305) 555-0100',
  street: '1 Ocean Drive',
  city: 'Miami',
  state: 'FL',
  zip: '33139',
  country: 'USA',
};
const emptyShipping = {
  clinicName: '',
  preferredAddressContactFullName: '',
  shippingClinicEmail: '',
  preferredAddressPhone: '',
  preferredAddressStreet: '',
  preferredAddressCity: '',
  preferredAddressState: '',
  preferredAddressZip: '',
  preferredAddressCountry: '',
};

describe('clientInformationSchema saves each block on its own (DESIGN.md 8.27)', () => {
  it('saves Personal Details alone, leaving the shipping block out', () => {
    expect(clientInformationSchema(TODAY).parse(personalDetails)).toEqual({
      ...personalDetails,
      phone: '3055550100',
    });
  });

  it('saves the shipping block alone, without any Personal Details field', () => {
    const shipping = Object.fromEntries(
      Object.entries(validInformation).filter(([key]) => key in emptyShipping),
    );
    expect(clientInformationSchema(TODAY).parse(shipping)).toEqual(shipping);
  });

  it('takes Personal Details with an empty shipping block: the block is optional until started', () => {
    expect(failures({ ...personalDetails, ...emptyShipping })).toEqual({});
    expect(clientInformationSchema(TODAY).parse({ ...personalDetails, ...emptyShipping })).toMatchObject(
      emptyShipping,
    );
  });

  it('lets the client empty the shipping block altogether', () => {
    expect(clientInformationSchema(TODAY).parse(emptyShipping)).toEqual(emptyShipping);
  });

  it('requires every other shipping field, with the spec’s messages, once one is filled', () => {
    expect(failures({ ...emptyShipping, clinicName: 'Coral Gables Orthopedics' })).toEqual({
      preferredAddressContactFullName: 'Please enter clinic contact person name',
      shippingClinicEmail: 'Please enter shipping email',
      preferredAddressPhone: 'Please enter phone number',
      preferredAddressStreet: 'Please enter Street',
      preferredAddressCity: 'Please enter city',
      preferredAddressState: 'Please select state',
      preferredAddressZip: 'Please enter zipcode',
      preferredAddressCountry: 'Please enter country',
    });
  });

  it('counts a shipping field sent alone as starting the block', () => {
    expect(Object.keys(failures({ preferredAddressCity: 'Miami' })).sort()).toEqual(
      Object.keys(emptyShipping)
        .filter((field) => field !== 'preferredAddressCity')
        .sort(),
    );
  });

  it('shows a wrong value and the missing ones of a started block together', () => {
    expect(failures({ ...emptyShipping, shippingClinicEmail: 'not-an-email' })).toMatchObject({
      clinicName: 'Please enter clinic name',
      shippingClinicEmail: 'Invalid email.',
    });
  });

  it('lists an empty field of a started block beside a phone with letters, each field with one message', () => {
    const result = clientInformationSchema(TODAY).safeParse({
      ...validInformation,
      clinicName: '',
      shippingClinicEmail: 'not-an-email',
      preferredAddressPhone: '305-555-O100',
    });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['shippingClinicEmail', 'Invalid email.'],
      ['preferredAddressPhone', 'Please insert only number, must be numeric'],
      ['clinicName', 'Please enter clinic name'],
    ]);
  });

  it('requires the rest of Personal Details once one of its fields is sent', () => {
    expect(failures({ phone: '3055550100' })).toEqual({
      firstName: 'Cannot be empty',
      lastName: 'Cannot be empty',
      clientDob: 'Please enter Birthdate',
      email: 'Please enter email',
      street: 'Please enter street',
      city: 'Please enter city',
      state: 'Please select state',
      zip: 'Please enter zipcode',
      country: 'Please enter country',
    });
  });

  it('refuses a save with neither block', () => {
    expect(failures({})).toEqual({
      undefined:
        'Nothing to save: send the fields of Personal Details or of Preferred Shipping to Medical Professional',
    });
  });
});

describe('clientInformationFieldOrder', () => {
  it('lists the schema’s fields in the schema’s order', () => {
    expect(clientInformationFieldOrder).toEqual(Object.keys(clientInformationShape('2000-01-01')));
  });
});

describe('tooLong', () => {
  it.each([
    [20, 'Must be at most 20 characters'],
    [80, 'Must be at most 80 characters'],
    [254, 'Must be at most 254 characters'],
  ])('says the limit of %i characters', (max, message) => {
    expect(tooLong(max)).toBe(message);
  });
});

describe('user-facing text carries DESIGN.md’s spelling fixes', () => {
  const texts = [
    ...Object.values(clientInformationMessages),
    ...Object.values(authMessages),
    CLIENT_INFORMATION_UPDATED,
    CELL_REQUEST_NOTICE,
  ];

  it.each(['nuber', 'sucessfully', "cann't", 'incase'])('never says %j', (misspelling) => {
    for (const text of texts) expect(text.toLowerCase()).not.toContain(misspelling);
  });

  it('asks for the shipping phone number, spelled right', () => {
    expect(clientInformationMessages.preferredAddressPhone).toBe('Please enter phone number');
  });

  it('confirms a save with "successfully"', () => {
    expect(CLIENT_INFORMATION_UPDATED).toBe('Client information successfully updated.');
  });
});

describe('annualStoragePaidUntilLabel', () => {
  it.each([
    [null, TODAY, 'Overdue', 'no paid-until date'],
    ['', TODAY, 'Overdue', 'an empty paid-until date'],
    ['2025-06-14', TODAY, 'Overdue', 'paid until yesterday'],
    ['2024-12-31', '2025-01-01', 'Overdue', 'paid until the end of last year, seen on New Year’s Day'],
    ['2025-06-15', TODAY, '2025-06-15', 'paid until today is not past'],
    ['2025-06-16', TODAY, '2025-06-16', 'paid until tomorrow'],
    ['2024-02-29', '2024-02-29', '2024-02-29', 'paid until leap day, seen on leap day'],
    ['2024-02-29', '2024-03-01', 'Overdue', 'paid until leap day, seen the day after'],
    ['2026-06-15', TODAY, '2026-06-15', 'paid a year ahead'],
  ])('paid until %j with today %s shows %j (%s)', (paidUntil, today, label, _why) => {
    expect(annualStoragePaidUntilLabel(paidUntil, today)).toBe(label);
  });
});

const inGoodStanding: ClientRecord = {
  clientACTId: 'ACT-1001',
  clientRecordId: 'rec-1001',
  ...validInformation,
  creditCardNumber: '************1111',
  annualStoragePaidUntil: '2026-06-15',
  totalAnnualOverdueAmount: 0,
  hasOverDuePayments: false,
  longevityVialsAvailable: 4,
  freeBioInsuranceVialsAvailble: 10,
  initialProcessingFormCompleted: true,
  infectiousDiseaseFormCompleted: true,
  clientConsentFormCompleted: true,
  arbSubscribed: false,
  physicianFormAgreement: true,
  dateBankedin: '2020-01-10',
  LastBioInsurancePurchasedDate: null,
};

const clientAlerts = (client: ClientRecord) => clientAlertItems(client).map((alert) => alert.text);

describe('clientAlertItems', () => {
  it('shows no alert for a client in good standing', () => {
    expect(clientAlerts(inGoodStanding)).toEqual([]);
  });

  it.each([
    [339.81, 'Total Amount Overdue = $339.81'],
    [679.62, 'Total Amount Overdue = $679.62'],
    [1019.43, 'Total Amount Overdue = $1,019.43'],
    [0.1 + 0.2, 'Total Amount Overdue = $0.30'],
    [350, 'Total Amount Overdue = $350.00'],
  ])(
    'shows an overdue total of %d dollars as %j, then asks to update payment information',
    (total, alert) => {
      expect(
        clientAlerts({ ...inGoodStanding, hasOverDuePayments: true, totalAnnualOverdueAmount: total }),
      ).toEqual([alert, 'Update your payment information to pay any overdue annual storage fee(s).']);
    },
  );

  it('shows no overdue total while the client has no overdue payments', () => {
    expect(
      clientAlerts({ ...inGoodStanding, hasOverDuePayments: false, totalAnnualOverdueAmount: 339.81 }),
    ).toEqual([]);
  });

  it.each([
    [null, 'no card on file'],
    ['', 'an empty card number'],
  ])('asks to update payment information with %j (%s)', (creditCardNumber, _why) => {
    expect(clientAlerts({ ...inGoodStanding, creditCardNumber })).toEqual([
      'Please update your payment information',
    ]);
  });

  it('asks to fill the consent form while it is incomplete', () => {
    expect(clientAlerts({ ...inGoodStanding, clientConsentFormCompleted: false })).toEqual([
      'Please fill the consent form',
    ]);
  });

  it('asks to complete the infectious disease submission while it is incomplete', () => {
    expect(clientAlerts({ ...inGoodStanding, infectiousDiseaseFormCompleted: false })).toEqual([
      'Please complete the infectious disease submission',
    ]);
  });

  it('raises no alert for an incomplete initial processing form', () => {
    expect(clientAlerts({ ...inGoodStanding, initialProcessingFormCompleted: false })).toEqual([]);
  });

  it('says where each alert is put right: payment information, the consent, the screening', () => {
    const everything = clientAlertItems({
      ...inGoodStanding,
      hasOverDuePayments: true,
      totalAnnualOverdueAmount: 679.62,
      creditCardNumber: null,
      clientConsentFormCompleted: false,
      infectiousDiseaseFormCompleted: false,
    });
    expect(everything.map((alert) => alert.fix)).toEqual([
      'payment',
      'payment',
      'payment',
      'consent',
      'screening',
    ]);
  });

  it('lists every alert in order: overdue total, overdue advice, card, consent, infectious disease', () => {
    expect(
      clientAlerts({
        ...inGoodStanding,
        hasOverDuePayments: true,
        totalAnnualOverdueAmount: 679.62,
        creditCardNumber: null,
        clientConsentFormCompleted: false,
        infectiousDiseaseFormCompleted: false,
      }),
    ).toEqual([
      'Total Amount Overdue = $679.62',
      'Update your payment information to pay any overdue annual storage fee(s).',
      'Please update your payment information',
      'Please fill the consent form',
      'Please complete the infectious disease submission',
    ]);
  });
});

describe('formsIncomplete turns the forms links red while either form is incomplete', () => {
  it.each([
    [true, true, false],
    [false, true, true],
    [true, false, true],
    [false, false, true],
  ])(
    'consent completed %s, infectious disease completed %s: incomplete is %s',
    (consent, infectious, incomplete) => {
      expect(
        formsIncomplete({ clientConsentFormCompleted: consent, infectiousDiseaseFormCompleted: infectious }),
      ).toBe(incomplete);
    },
  );
});

describe('todayFor gives the bank’s calendar date (America/New_York) for the instant passed in', () => {
  it.each([
    ['2025-01-01T04:59:59.999Z', '2024-12-31'],
    ['2025-01-01T05:00:00.000Z', '2025-01-01'],
    ['2024-03-01T04:30:00.000Z', '2024-02-29'],
    ['2025-06-15T12:00:00.000Z', '2025-06-15'],
  ])('at %s it is %s in New York', (instant, today) => {
    expect(todayFor(new Date(instant))).toBe(today);
  });
});
