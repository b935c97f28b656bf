import { z } from 'zod';

/** The public settings the pages read before anyone signs in. */
export const siteConfigSchema = z.object({
  contactUrl: z.string().describe('Where "Contact us" leads: the bank\'s contact page (CONTACT_URL)'),
});

export type SiteConfig = z.infer<typeof siteConfigSchema>;
