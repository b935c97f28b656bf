import { and, eq, ne } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import type { FormSubmissionResponse } from '../../../domain/consent-form';
import type { Database } from '../../db/client';
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
import { jsonSha256 } from '../../lib/secrets';
import type { PaymentDeps } from '../payments/ledger';
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
}

/** Settles a form's operation whose owner died: finish it, give it back, or look again later. */
export type FormRecovery<C extends FormClaim = FormClaim, T = FormSubmissionResponse> = (
  run: RecoveryRun<T>,
  claim: C | null,
) => Promise<Recovered>;

/** A pending row of the time before operations: given back once it is surely abandoned. */
const LEGACY_STALE_MS = 10 * 60_000;
export const FORM_INTERRUPTED =
  'This form was interrupted before it was completed, and nothing of it was kept. Please submit it again.';

/** Gives a form back: the pending submission and every document its operation stored. */
export async function releaseForm(tx: Transaction, claim: FormClaim) {
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
  await run.fail(new HttpError('IDEMPOTENCY_CONFLICT', FORM_INTERRUPTED), async (tx) => {
    if (claim) await releaseForm(tx, claim);
  });
  return 'settled';
}

/** True while the form's submission is still pending (not given back, not completed). */
export async function formStillClaimed(db: Database, claim: FormClaim): Promise<boolean> {
  const [row] = await db
    .select({ id: formSubmissions.id })
    .from(formSubmissions)
    .where(and(eq(formSubmissions.id, claim.submissionId), eq(formSubmissions.status, 'pending')))
    .limit(1);
  return row !== undefined;
}

/**
 * Before a new submission: a pending claim whose owner died is settled now (its form given
 * back, or finished by its kind's recovery), so the client is never blocked by a half-done
 * attempt for longer than a lease.
 */
export async function settleAbandonedClaim<C extends FormClaim, T>(
  deps: RunOnceDeps,
  clientId: string,
  form: FormName,
  recover: FormRecovery<C, T>,
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

/** Who submits which form, and whether it may be submitted at all. */
export interface FormSubmission {
  clientId: string;
  /** The physician who submits the form for the client (the physician variants). */
  physicianId?: string | null;
  form: FormName;
  idempotencyKey: string;
  /** The submission's body: the same key with another body is refused (422). */
  body: unknown;
  alreadyCompleted: string;
  /** The client record says the form is done already (a paper form, an import). */
  completedOnRecord: boolean;
}

/**
 * Claims the client's one submission of a form, in the operation's transaction: a form already
 * completed is refused (409 ALREADY_COMPLETED), one being submitted under another key too.
 */
export async function claimForm(
  tx: Transaction,
  deps: Pick<RunOnceDeps, 'clock'>,
  input: FormSubmission,
  operationId: string,
): Promise<FormClaim> {
  const { clientId, form } = input;
  if (input.completedOnRecord) throw new HttpError('ALREADY_COMPLETED', input.alreadyCompleted);
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
      throw new HttpError('ALREADY_COMPLETED', input.alreadyCompleted);
    }
    throw new HttpError(
      'IDEMPOTENCY_CONFLICT',
      'This form is being submitted already. Please wait a moment and reload the page.',
    );
  }
  return { operationId, submissionId: claim.id, clientId, form };
}

/**
 * Submits a client's form once, through the run-once engine: the (client, form) submission is
 * claimed with the operation before anything is stored, so exactly one submission gets through;
 * a repeat of it (same Idempotency-Key and body) answers what it answered; any other is refused
 * and changes nothing. A failure, or an owner that dies, gives the form and its documents back.
 * (A paid form, the screening, is placed through the paid-order workflow with the same claim.)
 */
export async function submitFormOnce(
  deps: FormDeps,
  input: FormSubmission & {
    kind: 'consent';
    work: (run: Run<FormSubmissionResponse>, claim: FormClaim) => Promise<FormSubmissionResponse>;
  },
): Promise<FormSubmissionResponse> {
  await settleAbandonedClaim(deps, input.clientId, input.form, giveFormBack);
  return runOnce<FormClaim, FormSubmissionResponse>(deps, {
    scope: `client:${input.clientId}`,
    key: input.idempotencyKey,
    kind: input.kind,
    request: input.body,
    claim: (tx, operationId) => claimForm(tx, deps, input, operationId),
    release: (tx, claim) => releaseForm(tx, claim),
    recover: giveFormBack,
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
