import { and, eq, lt } from 'drizzle-orm';
import type { DraftFormName, FormDraft } from '../../../domain/form-drafts';
import type { Executor } from '../../db/client';
import { openText, sealText } from '../../lib/sealed-text';
import { formDrafts } from './schema';

/**
 * Whose draft it is: the client filling in their own form, or a physician filling it in for the
 * client they act for. A physician's draft is theirs alone, as the client's is the client's.
 */
export interface DraftOwner {
  clientId: string;
  physicianId: string | null;
}

const draftKeyOf = (form: DraftFormName, owner: DraftOwner) =>
  `${form}:${owner.clientId}:${owner.physicianId ?? 'self'}`;

/** Keeps the answers, sealed under the documents key, replacing the ones saved before. */
export async function saveFormDraft(
  db: Executor,
  key: Buffer,
  form: DraftFormName,
  owner: DraftOwner,
  draft: FormDraft,
  now: Date,
): Promise<void> {
  const sealed = sealText(key, JSON.stringify(draft));
  await db
    .insert(formDrafts)
    .values({
      draftKey: draftKeyOf(form, owner),
      form,
      clientId: owner.clientId,
      physicianId: owner.physicianId,
      sealed,
      updatedAt: now,
    })
    .onConflictDoUpdate({ target: formDrafts.draftKey, set: { sealed, updatedAt: now } });
}

/** The owner's draft of the form, opened; null when there is none. */
export async function readFormDraft(
  db: Executor,
  key: Buffer,
  form: DraftFormName,
  owner: DraftOwner,
): Promise<{ draft: FormDraft; savedAt: Date } | null> {
  const [row] = await db
    .select({ sealed: formDrafts.sealed, updatedAt: formDrafts.updatedAt })
    .from(formDrafts)
    .where(eq(formDrafts.draftKey, draftKeyOf(form, owner)))
    .limit(1);
  if (!row) return null;
  return { draft: JSON.parse(openText(key, row.sealed)) as FormDraft, savedAt: row.updatedAt };
}

/** Forgets the owner's draft of the form (they discarded it). */
export async function deleteFormDraft(db: Executor, form: DraftFormName, owner: DraftOwner): Promise<void> {
  await db.delete(formDrafts).where(eq(formDrafts.draftKey, draftKeyOf(form, owner)));
}

/** The form is submitted: every draft of it for this client goes, whoever was filling it in. */
export async function deleteSubmittedFormDrafts(
  db: Executor,
  form: DraftFormName,
  clientId: string,
): Promise<void> {
  await db.delete(formDrafts).where(and(eq(formDrafts.clientId, clientId), eq(formDrafts.form, form)));
}

/** The clean-up job: drafts not saved since `cutoff` (7 days) go. */
export async function deleteFormDraftsSavedBefore(db: Executor, cutoff: Date): Promise<number> {
  const gone = await db
    .delete(formDrafts)
    .where(lt(formDrafts.updatedAt, cutoff))
    .returning({ id: formDrafts.id });
  return gone.length;
}
