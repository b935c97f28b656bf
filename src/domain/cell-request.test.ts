import { describe, expect, it } from 'vitest';
import { cellRequestCardEmptyMessages } from './cell-request';
import { cardFormSchema } from './payments';

/** Spec 3 section 5, "New card (request form)": its own words for the empty fields. */
describe('the request form’s new card', () => {
  const messages = (card: Record<string, string>) => {
    const parsed = cardFormSchema('2026-11-23', {
      keptOnFile: false,
      whenEmpty: cellRequestCardEmptyMessages,
    }).safeParse(card);
    if (parsed.success) return {};
    return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
  };

  it('asks for the billing email, the holder and the expiry in the spec’s words', () => {
    expect(messages({})).toMatchObject({
      Credit_Card_Biling_Email_Address: 'Please enter billing email',
      Credit_Card_Holder_First_Name: 'Please enter first name',
      Credit_Card_Holder_Last_Name: 'Please enter last name',
      Month_of_Expiry: 'Cannot be empty',
      Year_of_Expiry: 'Cannot be empty',
    });
  });

  it('still refuses an email that is not one, and a bad CVV', () => {
    expect(messages({ Credit_Card_Biling_Email_Address: 'not an email', CVV: '12' })).toMatchObject({
      Credit_Card_Biling_Email_Address: 'Invalid email.',
      CVV: 'Invalid CVV code',
    });
  });
});
