import { z } from 'zod';
import { actingForSchema } from './auth';
import { singleLine } from './text';

/** get_Physician: the signed-in physician, and only them. */
export const getPhysicianResponseSchema = z.object({
  Id: z.string().describe("The physician's record id"),
  Physician_ID: z.string().describe('The Physician ID they sign in with, e.g. PHY20001'),
  Name: z.string(),
});

/** One of the physician's clients, as the "My clients" list shows it. */
export const physicianClientSchema = z.object({
  id: z.string().describe("The client's record id"),
  clientACTId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  name: z.string(),
  dateOfBirth: z.string().describe('YYYY-MM-DD'),
  initialProcessingPaid: z.boolean(),
  consentSigned: z.boolean(),
  screeningDone: z.boolean(),
  storagePaidUntil: z.string().nullable().describe('YYYY-MM-DD, or null when never paid'),
  dateBankedIn: z.string().nullable().describe('YYYY-MM-DD the tissue arrived, or null until it does'),
  documents: z
    .array(z.object({ id: z.string(), form: z.enum(['consent', 'infectious_disease']) }))
    .describe('The signed PDFs, to download at /api/pay/documents/:id'),
});

export const getPhysicianClientsResponseSchema = z.object({ clients: z.array(physicianClientSchema) });

export type PhysicianClient = z.infer<typeof physicianClientSchema>;

/** set_ActingClient: the client the physician acts for in this session (Client ID or record id). */
export const setActingClientRequestSchema = z.object({
  clientId: singleLine(
    z.string({ error: 'Please choose a client' }).trim().min(1, 'Please choose a client').max(64),
  ),
});

export const setActingClientResponseSchema = z.object({ actingFor: actingForSchema });
