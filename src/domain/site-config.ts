import { z } from 'zod';

/**
 * The bank's own details, one group of settings (COMPANY_NAME, COMPANY_PHONE, REMIT_TO_PAYEE,
 * REMIT_TO_ADDRESS, PRIVACY_URL; placeholders in demo mode): the footer of every page, the phone
 * used when a client has none on file, and where a check goes.
 */
export const bankDetailsSchema = z.object({
  name: z.string().describe('The bank\'s name, as clients know it ("ACT")'),
  phone: z.string().describe("The bank's phone number, 10 digits"),
  payee: z.string().describe('Whom a check is made out to'),
  remitTo: z.array(z.string()).describe('Where a check is mailed, line by line'),
  privacyUrl: z.string().describe('The privacy notice'),
});
export type BankDetails = z.infer<typeof bankDetailsSchema>;

/** The public settings the pages read before anyone signs in. */
export const siteConfigSchema = z.object({
  contactUrl: z.string().describe('Where "Contact us" leads: the bank\'s contact page (CONTACT_URL)'),
  bank: bankDetailsSchema,
});

export type SiteConfig = z.infer<typeof siteConfigSchema>;
