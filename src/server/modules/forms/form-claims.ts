import { and, eq, ne } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import type { FormSubmissionResponse } from '../../../domain/consent-form';
import { deleteOperationDocuments } from '../../lib/document-store';
import { HttpError } from '../../lib/http-error';
import {
  isHeld,
  operationById,
  type Recovered,
  type RecoveryRun,
  type Run,
  type RunOnceDeps,
  recoverLapsed,
  runOnce,
  type Transaction,
} from '../../lib/run-once';
import { sealText } from '../../lib/sealed-text';
import { jsonSha256 } from '../../lib/secrets';
import type { PaymentDeps } from '../payments/payment-service';
import { formSubmissions } from './schema';

export interface FormDeps extends PaymentDeps {
  documentsKey: Buffer;
}

export type FormName = (typeof formSubmissions.$inferInsert)['form'];
export type SubmissionRow = typeof formSubmissions.$inferSelect;

/** What a form's operation claimed: the client's one submission of that form. */
export interface FormClaim {
  operationId: string;
  submissionId: string;
  clientId: string;
  form: FormName;
  /**
   * What a recovery needs to finish the form when its owner died after something outside was
   * done (a White Glove Labs charge), sealed under the documents key: it names the client.
   */
  resume?: string;
}

/** Settles a form's operation whose owner died: finish it, give it back, or look again later. */
export type FormRecovery = (
  run: RecoveryRun<FormSubmissionResponse>,
  claim: FormClaim | null,
) => Promise<Recovered>;

/** A pending row of the time before operations: given back once it is surely abandoned. */
const LEGACY_STALE_MS = 10 * 60_000;
const INTERRUPTED =
  'This form was interrupted before it was completed, and nothing of it was kept. Please submit it again.';

/** Gives a form back: the pending submission and every document its operation stored. */
async function releaseForm(tx: Transaction, claim: FormClaim) {
  await tx
    .delete(formSubmissions)
    .where(and(eq(formSubmissions.id, claim.submissionId), eq(formSubmissions.status, 'pending')));
  await deleteOperationDocuments(tx, claim.operationId);
}

/** A signing whose owner died is given back whole; the client submits again. */
export async function giveFormBack(
  run: RecoveryRun<FormSubmissionResponse>,
  claim: FormClaim | null,
): Promise<Recovered> {
  await run.fail(new HttpError(409, 'IDEMPOTENCY_CONFLICT', INTERRUPTED), async (tx) => {
    if (claim) await releaseForm(tx, claim);
  });
  return 'settled';
}

/**
 * Before a new submission: a pending claim whose owner died is settled now (its form given
 * back), so the client is never blocked by a half-done attempt for longer than a lease.
 */
async function settleAbandonedClaim(
  deps: RunOnceDeps,
  clientId: string,
  form: FormName,
  recover: FormRecovery,
) {
  const [pending] = await deps.db
    .select()
    .from(formSubmissions)
    .where(
      and(
        eq(formSubmissions.clientId, clientId),
        eq(formSubmissions.form, form),
        eq(formSubmissions.status, 'pending'),
      ),
    )
    .limit(1);
  if (!pending) return;
  const op = pending.operationId ? await operationById(deps.db, pending.operationId) : undefined;
  if (op) {
    if (!isHeld(op, deps.clock.now())) await recoverLapsed(deps, op.id, recover);
  } else if (pending.createdAt.getTime() < deps.clock.now().getTime() - LEGACY_STALE_MS) {
    await deps.db.delete(formSubmissions).where(eq(formSubmissions.id, pending.id));
  }
}

/**
 * Submits a client's form once, through the run-once engine: the (client, form) submission is
 * claimed with the operation before anything is stored or charged, so exactly one submission
 * gets through; a repeat of it (same Idempotency-Key and body) answers what it answered; any
 * other is refused and changes nothing. A failure gives the form and its documents back.
 */
export async function submitFormOnce(
  deps: FormDeps,
  input: {
    clientId: string;
    /** The physician who submits the form for the client (the physician variants). */
    physicianId?: string | null;
    form: FormName;
    kind: 'consent' | 'infectious-disease';
    idempotencyKey: string;
    /** The submission's body: the same key with another body is refused (422). */
    body: unknown;
    alreadyCompleted: string;
    /** The client record says the form is done already (a paper form, an import). */
    completedOnRecord: boolean;
    work: (run: Run<FormSubmissionResponse>, claim: FormClaim) => Promise<FormSubmissionResponse>;
    /** What a recovery needs to finish this submission (kept sealed with the claim). */
    resume?: unknown;
    /** The kind's recovery; by default the form is given back. */
    recover?: FormRecovery;
  },
): Promise<FormSubmissionResponse> {
  const { clientId, form } = input;
  const recover = input.recover ?? giveFormBack;
  await settleAbandonedClaim(deps, clientId, form, recover);
  return runOnce<FormClaim, FormSubmissionResponse>(deps, {
    scope: `client:${clientId}`,
    key: input.idempotencyKey,
    kind: input.kind,
    request: input.body,
    async claim(tx, operationId) {
      if (input.completedOnRecord) throw new HttpError(409, 'ALREADY_COMPLETED', input.alreadyCompleted);
      const [claim] = await tx
        .insert(formSubmissions)
        .values({
          clientId,
          physicianId: input.physicianId ?? null,
          form,
          status: 'pending',
          idempotencyKey: input.idempotencyKey,
          requestHash: jsonSha256(input.body),
          operationId,
          createdAt: deps.clock.now(),
        })
        .onConflictDoNothing()
        .returning({ id: formSubmissions.id });
      if (!claim) {
        const [existing] = await tx
          .select({ status: formSubmissions.status })
          .from(formSubmissions)
          .where(
            and(
              eq(formSubmissions.clientId, clientId),
              eq(formSubmissions.form, form),
              ne(formSubmissions.status, 'rejected'),
            ),
          )
          .limit(1);
        if (existing?.status === 'completed') {
          throw new HttpError(409, 'ALREADY_COMPLETED', input.alreadyCompleted);
        }
        throw new HttpError(
          409,
          'IDEMPOTENCY_CONFLICT',
          'This form is being submitted already. Please wait a moment and reload the page.',
        );
      }
      return {
        operationId,
        submissionId: claim.id,
        clientId,
        form,
        ...(input.resume === undefined
          ? {}
          : { resume: sealText(deps.documentsKey, JSON.stringify(input.resume)) }),
      };
    },
    release: (tx, claim) => releaseForm(tx, claim),
    recover,
    work: input.work,
  });
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
