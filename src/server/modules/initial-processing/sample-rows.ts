import { and, asc, eq, ne } from 'drizzle-orm';
import { isoToUsDate } from '../../../domain/dates';
import { tissueLabels } from '../../../domain/initial-processing';
import type { Database } from '../../db/client';
import { clientContacts, clientFullName } from '../clients/client-directory';
import { physicianContacts } from '../physicians/physician-repository';
import { sampleSubmissions } from './schema';

type SampleRow = typeof sampleSubmissions.$inferSelect;

/** A sample a queue acts on and its client (read by `clientOf`), or null when either is unknown. */
export async function sampleAndClient<Client>(
  db: Database,
  sampleId: string,
  clientOf: (db: Database, clientId: string) => Promise<Client | null>,
): Promise<{ sample: SampleRow; client: Client } | null> {
  const [sample] = await db
    .select()
    .from(sampleSubmissions)
    .where(eq(sampleSubmissions.id, sampleId))
    .limit(1);
  const client = sample ? await clientOf(db, sample.clientId) : null;
  return sample && client ? { sample, client } : null;
}

/** What every queue of samples shows of one: who it is for, from whom, what and when. */
export interface SampleFacts {
  sampleId: string;
  clientId: string;
  clientActId: string;
  clientName: string;
  physicianName: string;
  tissue: string;
  shipDate: string;
  submittedAt: string;
}

/** The samples with their client's and physician's names (one read each); a sample without either is left out. */
export async function sampleFacts(
  db: Database,
  samples: SampleRow[],
): Promise<Array<[SampleRow, SampleFacts]>> {
  const clients = await clientContacts(
    db,
    samples.map((sample) => sample.clientId),
  );
  const physicians = await physicianContacts(
    db,
    samples.map((sample) => sample.physicianId),
  );
  return samples.flatMap((sample): Array<[SampleRow, SampleFacts]> => {
    const client = clients.get(sample.clientId);
    const physician = physicians.get(sample.physicianId);
    if (!client || !physician) return [];
    return [
      [
        sample,
        {
          sampleId: sample.id,
          clientId: sample.clientId,
          clientActId: client.clientActId,
          clientName: clientFullName(client),
          physicianName: `Dr. ${physician.firstName} ${physician.lastName}`,
          tissue: tissueLabels[sample.tissue],
          shipDate: isoToUsDate(sample.shipDate),
          submittedAt: (sample.completedAt ?? sample.createdAt).toISOString(),
        },
      ],
    ];
  });
}

/**
 * The day the client's initial sample was extracted, as its physician's form gave it (the day it
 * ships overnight to the laboratory); null when the portal holds no sample of theirs.
 */
export async function sampleExtractedOn(db: Database, clientId: string): Promise<string | null> {
  const [first] = await db
    .select({ shipDate: sampleSubmissions.shipDate })
    .from(sampleSubmissions)
    .where(and(eq(sampleSubmissions.clientId, clientId), ne(sampleSubmissions.status, 'pending')))
    .orderBy(asc(sampleSubmissions.createdAt))
    .limit(1);
  return first?.shipDate ?? null;
}
