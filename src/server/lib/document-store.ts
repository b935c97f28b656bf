import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Database, Executor } from '../db/client';
import { documents } from '../db/schema';
import { notFound } from './http-error';
import type { Transaction } from './run-once';

/**
 * Documents at rest: AES-256-GCM with a key from DOCUMENTS_KEY (base64, 32 bytes), or in demo
 * mode a key generated once into DATA_DIR. The stored bytes are never the document; the tag
 * makes any change to them fail on reading.
 */

export function documentsKey(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'base64');
  const file = path.join(dataDir, 'documents.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

export type DocumentKind = (typeof documents.$inferInsert)['kind'];

export interface StoredDocument {
  id: string;
  sha256: string;
}

export async function storeDocument(
  db: Executor,
  key: Buffer,
  input: {
    clientId: string;
    kind: DocumentKind;
    fileName: string;
    contentType: string;
    content: Buffer;
    now: Date;
    /** The run-once operation storing it: its documents go with it if it fails. */
    operationId?: string | null;
  },
): Promise<StoredDocument> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(input.content), cipher.final()]);
  const sha256 = createHash('sha256').update(input.content).digest('hex');
  const [row] = await db
    .insert(documents)
    .values({
      clientId: input.clientId,
      kind: input.kind,
      fileName: input.fileName,
      contentType: input.contentType,
      sizeBytes: input.content.length,
      sha256,
      iv,
      authTag: cipher.getAuthTag(),
      ciphertext,
      operationId: input.operationId ?? null,
      createdAt: input.now,
    })
    .returning({ id: documents.id });
  if (!row) throw new Error('the document was not stored');
  return { id: row.id, sha256 };
}

/** Removes the documents a run-once operation stored (it failed, or its claim is given back). */
export async function deleteOperationDocuments(
  tx: Database | Transaction,
  operationId: string,
): Promise<void> {
  await tx.delete(documents).where(eq(documents.operationId, operationId));
}

/** The file name and size of these documents, by id, as lists show them (never their content). */
export async function documentFacts(
  db: Database,
  documentIds: readonly string[],
): Promise<Map<string, { fileName: string; sizeBytes: number }>> {
  const ids = [...new Set(documentIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: documents.id, fileName: documents.fileName, sizeBytes: documents.sizeBytes })
    .from(documents)
    .where(inArray(documents.id, ids));
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}

/** The client's documents of these kinds, newest first: what they are, never their content. */
export async function listClientDocuments(db: Database, clientId: string, kinds: readonly DocumentKind[]) {
  return db
    .select({
      id: documents.id,
      kind: documents.kind,
      fileName: documents.fileName,
      contentType: documents.contentType,
      sizeBytes: documents.sizeBytes,
      createdAt: documents.createdAt,
    })
    .from(documents)
    .where(and(eq(documents.clientId, clientId), inArray(documents.kind, [...kinds])))
    .orderBy(desc(documents.createdAt));
}

/** The client a document belongs to; null when there is no such document. */
export async function documentOwner(db: Database, documentId: string): Promise<string | null> {
  const [row] = await db
    .select({ clientId: documents.clientId })
    .from(documents)
    .where(eq(documents.id, documentId))
    .limit(1);
  return row?.clientId ?? null;
}

/** A client's own document, decrypted and checked against its hash; null when it is not theirs. */
export async function readDocument(db: Database, key: Buffer, clientId: string, documentId: string) {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.clientId, clientId)))
    .limit(1);
  if (!row) return null;
  return decrypt(key, row);
}

/** A document by id for the server's own use (a mail attachment), decrypted; null if gone. */
export async function readDocumentForDelivery(db: Database, key: Buffer, documentId: string) {
  const [row] = await db.select().from(documents).where(eq(documents.id, documentId)).limit(1);
  return row ? decrypt(key, row) : null;
}

function decrypt(key: Buffer, row: typeof documents.$inferSelect) {
  const decipher = createDecipheriv('aes-256-gcm', key, row.iv);
  decipher.setAuthTag(row.authTag);
  const content = Buffer.concat([decipher.update(row.ciphertext), decipher.final()]);
  if (createHash('sha256').update(content).digest('hex') !== row.sha256) {
    throw new Error(`document ${row.id} does not match its hash`);
  }
  return { fileName: row.fileName, contentType: row.contentType, content, sha256: row.sha256 };
}

/**
 * A client's document as the answer: never cached, its name made safe for the header, to save
 * (`attachment`) or to open in the browser (`inline`, a label to print); a missing one is a 404.
 */
export async function replyWithDocument(
  reply: FastifyReply,
  found: Awaited<ReturnType<typeof readDocument>>,
  disposition: 'attachment' | 'inline' = 'attachment',
) {
  if (!found) throw notFound();
  return reply
    .header('cache-control', 'no-store')
    .header('content-disposition', `${disposition}; filename="${found.fileName.replace(/[^\w.-]/g, '_')}"`)
    .header('x-content-sha256', found.sha256)
    .type(found.contentType)
    .send(found.content);
}
