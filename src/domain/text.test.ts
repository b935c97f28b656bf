import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientInformationSchema } from './client';
import { consentPageOneFields } from './consent-form';
import { freeText, hasControlCharacter, singleLine, textMessages } from './text';

describe('control characters', () => {
  it.each([
    ['NUL', 'Jo\u0000hn', true],
    ['start of heading', '\u0001', true],
    ['escape', 'a\u001bb', true],
    ['unit separator', '\u001f', true],
    ['DEL', 'a\u007f', true],
    ['tab', 'a\tb', false],
    ['line feed', 'a\nb', false],
    ['carriage return', 'a\r\nb', false],
    ['plain text', "O'Brien-Smith, Jr.", false],
    ['accents and emoji', 'José Ñuñez 🙂', false],
    ['space', ' ', false],
  ])('%s: refused = %s', (_, value, refused) => {
    expect(hasControlCharacter(value)).toBe(refused);
  });

  it('refuses tabs and line breaks in a one-line field, and allows them in free text', () => {
    const name = singleLine(z.string().trim().max(80));
    const notes = freeText(z.string().trim().max(1000));
    expect(name.safeParse('Jane\nDoe').error?.issues[0]?.message).toBe(textMessages.lineBreak);
    expect(name.safeParse('Jane\u0000').error?.issues[0]?.message).toBe(textMessages.controlCharacter);
    expect(name.parse(' Jane Doe ')).toBe('Jane Doe');
    expect(notes.parse('Aspirin\n\tIbuprofen')).toBe('Aspirin\n\tIbuprofen');
    expect(notes.safeParse('Aspirin\u0000').error?.issues[0]?.message).toBe(textMessages.controlCharacter);
  });

  it('keeps the schema its limits and messages', () => {
    const name = singleLine(z.string().max(3, 'too long'));
    expect(name.safeParse('abcd').error?.issues[0]?.message).toBe('too long');
  });
});

describe('the contracts use these rules', () => {
  const clientForm = {
    firstName: 'Jane',
    lastName: 'Doe',
    clientDob: '03/14/1975',
    email: 'jane.doe@example.com',
    phone: '3055550142',
    street: '1200 Brickell Avenue',
    city: 'Miami',
    state: 'FL',
    zip: '33131',
    country: 'United States',
    clinicName: 'Coral Gables Orthopedics',
    preferredAddressContactFullName: 'Dr. Ana Rivera',
    shippingClinicEmail: 'ship@coral.example.com',
    preferredAddressPhone: '3055550111',
    preferredAddressStreet: '200 Alhambra Circle',
    preferredAddressCity: 'Coral Gables',
    preferredAddressState: 'FL',
    preferredAddressZip: '33134',
    preferredAddressCountry: 'United States',
  };

  it.each(Object.keys(clientForm))('the Client Information form refuses a NUL in %s', (field) => {
    const schema = clientInformationSchema('2026-01-01');
    expect(schema.safeParse(clientForm).success).toBe(true);
    const result = schema.safeParse({
      ...clientForm,
      [field]: `${clientForm[field as keyof typeof clientForm]}\u0000`,
    });
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });

  it('the consent form takes line breaks in the medications and refuses a NUL', () => {
    const medications = z.object(consentPageOneFields).shape.Medications_taking;
    expect(medications.parse('Aspirin\nIbuprofen')).toBe('Aspirin\nIbuprofen');
    expect(medications.safeParse('Aspirin\u0000').success).toBe(false);
  });
});
