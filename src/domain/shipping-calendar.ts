import { z } from 'zod';
import { calendarDateToIso } from './dates';

/** Admins keep the carrier blackout dates (DESIGN.md section 6): added to FedEx's computed holidays. */
export const shippingCalendarMessages = {
  invalidDate: 'Please enter a real date as MM/DD/YYYY.',
  pastDate: 'Please choose today or a later date.',
} as const;

export const blackoutDateRequestSchema = z.object({
  date: z
    .string()
    .trim()
    .max(10, shippingCalendarMessages.invalidDate)
    // Typed as every date of the back office (MM/DD/YYYY), or YYYY-MM-DD; kept as YYYY-MM-DD.
    .transform((typed, ctx) => {
      const iso = calendarDateToIso(typed);
      if (iso) return iso;
      ctx.addIssue({ code: 'custom', message: shippingCalendarMessages.invalidDate });
      return z.NEVER;
    })
    .describe('MM/DD/YYYY (or YYYY-MM-DD)'),
});
export type BlackoutDateRequest = z.infer<typeof blackoutDateRequestSchema>;

export const blackoutDatesResponseSchema = z.object({
  today: z.string().describe('YYYY-MM-DD'),
  dates: z.array(z.string().describe('YYYY-MM-DD')).describe('The blackout dates, in date order'),
  holidays: z
    .array(z.object({ date: z.string(), name: z.string() }))
    .describe(
      "FedEx's computed holidays of this year and next, for reference (no delivery on the day after either)",
    ),
});
export type BlackoutDatesResponse = z.infer<typeof blackoutDatesResponseSchema>;
