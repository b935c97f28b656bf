import { and, eq, lt } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import type { FormSubmissionResponse } from '../../../domain/consent-form';
import type { Database } from '../../db/client';
import { formSubmissions } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { jsonSha256 } from '../../lib/secrets';

export type FormName = (typeof formSubmissions.$inferInsert)['form'];
export type SubmissionRow = typeof formSubmissions.$inferSelect;

const WAIT_MS = 30_000;
/** A claim left pending this long by a process that died may be taken over. */
const STALE_MS = 10 * 60_000;

/**
 * Claims a client's form for one submission before anything is stored or charged: the unique
 * (client, form) key lets exactly one submission through. A repeat of the same submission (same
 * Idempotency-Key and body) answers what the first answered; any other is refused and changes
 * nothing.
 */
export async function claimForm(
  db: Database,
  input: {
    clientId: string;
    form: FormName;
    idempotencyKey: string;
    /** The submission's body: the same key with another body is refused (422). */
    body: unknown;
    now: Date;
    alreadyCompleted: string;
    /** The client record says the form is done already (a paper form, an import). */
    completedOnRecord: boolean;
  },
): Promise<{ claim: SubmissionRow } | { replay: FormSubmissionResponse }> {
  const claimed = await claimOnce(db, input);
  if ('claim' in claimed && input.completedOnRecord) {
    await releaseClaim(db, claimed.claim);
    throw new HttpError(409, 'ALREADY_COMPLETED', input.alreadyCompleted);
  }
  return claimed;
}

async function claimOnce(
  db: Database,
  input: {
    clientId: string;
    form: FormName;
    idempotencyKey: string;
    body: unknown;
    now: Date;
    alreadyCompleted: string;
  },
): Promise<{ claim: SubmissionRow } | { replay: FormSubmissionResponse }> {
  const { clientId, form, idempotencyKey, now } = input;
  const requestHash = jsonSha256(input.body);
  const [claim] = await db
    .insert(formSubmissions)
    .values({ clientId, form, status: 'pending', idempotencyKey, requestHash, createdAt: now })
    .onConflictDoNothing()
    .returning();
  if (claim) return { claim };

  const find = async () =>
    (
      await db
        .select()
        .from(formSubmissions)
        .where(and(eq(formSubmissions.clientId, clientId), eq(formSubmissions.form, form)))
        .limit(1)
    )[0];
  let existing = await find();
  const sameSubmission = existing?.idempotencyKey === idempotencyKey;
  if (sameSubmission && existing?.requestHash !== requestHash) {
    throw new HttpError(
      422,
      'IDEMPOTENCY_CONFLICT',
      'This submission was already used for different answers.',
    );
  }
  const deadline = Date.now() + WAIT_MS;
  while (sameSubmission && existing?.status === 'pending' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    existing = await find();
  }
  if (existing?.status === 'completed') {
    if (sameSubmission && existing.responseJson) {
      return { replay: JSON.parse(existing.responseJson) as FormSubmissionResponse };
    }
    throw new HttpError(409, 'ALREADY_COMPLETED', input.alreadyCompleted);
  }
  if (existing && existing.createdAt.getTime() < now.getTime() - STALE_MS) {
    const [taken] = await db
      .update(formSubmissions)
      .set({ idempotencyKey, requestHash, createdAt: now })
      .where(
        and(
          eq(formSubmissions.id, existing.id),
          eq(formSubmissions.status, 'pending'),
          lt(formSubmissions.createdAt, new Date(now.getTime() - STALE_MS)),
        ),
      )
      .returning();
    if (taken) return { claim: taken };
  }
  throw new HttpError(
    409,
    'IDEMPOTENCY_CONFLICT',
    'This form is being submitted already. Please wait a moment and reload the page.',
  );
}

/** Gives a claim back after a refusal, so the client can correct and submit again. */
export async function releaseClaim(db: Database, claim: SubmissionRow) {
  await db
    .delete(formSubmissions)
    .where(and(eq(formSubmissions.id, claim.id), eq(formSubmissions.status, 'pending')));
}

/** The PNG inside a signature data URL, checked to be a PNG of a sensible size; null otherwise. */
export function signaturePng(dataUrl: string | undefined): Buffer | null {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUrl ?? '');
  if (!match?.[1]) return null;
  const png = Buffer.from(match[1], 'base64');
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (png.length < 33 || !png.subarray(0, 8).equals(magic) || png.toString('latin1', 12, 16) !== 'IHDR') {
    return null;
  }
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  // A 500 x 100 pad, drawn on a screen of device pixel ratio up to 4.
  if (width < 50 || height < 10 || width > 2000 || height > 400) return null;
  return png;
}

/**
 * The drawn signature of a submission, or null: a PNG by signaturePng whose image data can also
 * be decoded, so that a broken image is the signature message (400) before anything is claimed,
 * stored or charged, rather than a failure while the signed PDF is drawn.
 */
export async function readSignature(dataUrl: string | undefined): Promise<Buffer | null> {
  const png = signaturePng(dataUrl);
  if (!png) return null;
  try {
    await (await PDFDocument.create()).embedPng(png);
    return png;
  } catch {
    return null;
  }
}
