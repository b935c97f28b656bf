import { z } from 'zod';
import { clientInformationShape, clientRecordSchema, withClientInformationBlocks } from './client';
import { clientActivityRecordSchema } from './client-activity';
import type { Today } from './dates';
import { newbornAgreementFiguresSchema } from './newborn-agreement';
import { releaseReadinessSchema } from './release-readiness';
import { singleLine } from './text';

/*
 * A client's record as the back office reads and corrects it, and the agreement links it sends.
 * Apart from staff.ts, which the staff sign-in page and every back office page load (its words,
 * sign-in and session): those pages do not load the client's schemas (the record, its activity,
 * the release checklist, the newborn agreement) with them.
 */

export const staffDocumentSchema = z.object({
  id: z.string(),
  kind: z.enum(['lab_report', 'signed_agreement', 'signature', 'form_answers', 'receipt', 'shipping_label']),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
});
export type StaffDocument = z.infer<typeof staffDocumentSchema>;

export const staffFormSchema = z.object({
  form: z.enum(['consent', 'infectious_disease']),
  status: z.enum(['pending', 'completed', 'rejected']),
  completedAt: z.string().nullable(),
  pdfDocumentId: z.string().nullable(),
  labReportDocumentId: z.string().nullable(),
  submittedByPhysician: z.boolean(),
});

/** Display data of a method on file: never more than the last 4 digits. */
export const staffPaymentMethodSchema = z.object({
  kind: z.enum(['card', 'ach']),
  brand: z.string().nullable(),
  last4: z.string(),
  expiry: z.string().nullable(),
  holder: z.string().nullable(),
  routingNumber: z.string().nullable(),
});

export const staffClientResponseSchema = z.object({
  client: clientRecordSchema,
  physician: z.object({ physicianACTId: z.string(), name: z.string() }).nullable(),
  forms: z.array(staffFormSchema),
  documents: z.array(staffDocumentSchema),
  paymentMethods: z.array(staffPaymentMethodSchema),
  activity: z.array(clientActivityRecordSchema),
  releaseReadiness: releaseReadinessSchema.describe("The release checklist of the client's next request"),
  profileChanges: z.array(
    z.object({
      at: z.string(),
      staff: z.string().describe("The staff member's e-mail"),
      field: z.string(),
      oldValue: z.string(),
      newValue: z.string(),
    }),
  ),
});
export type StaffClientRecord = z.infer<typeof staffClientResponseSchema>;

/** Staff correct a client's profile: the client's own Client Information fields and rules. */
export function staffUpdateClientRequestSchema(today: Today) {
  return withClientInformationBlocks(
    z.object({
      ...clientInformationShape(today),
      clientId: singleLine(z.string().trim().min(1).max(64)),
    }),
  );
}

export const staffUpdateClientResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  changed: z.array(z.string()).describe('The fields that changed'),
});

/** Staff send a newborn finance agreement link to the main contact (e-mail, the client's if not given). */
export const sendAgreementLinkRequestSchema = newbornAgreementFiguresSchema.extend({
  clientId: singleLine(z.string().trim().min(1).max(64)),
});

export const sendAgreementLinkResponseSchema = z.object({
  sentTo: z.string().describe('The masked address'),
  expiresAt: z.string(),
});

export const AGREEMENT_LINK_EMAIL_SUBJECT = 'Your Newborn Finance Agreement';
export const AGREEMENT_LINKS_TOO_MANY =
  'Too many agreement links were sent to this client. Please try again later.';
