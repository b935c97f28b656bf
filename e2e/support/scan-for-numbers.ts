/**
 * Run after the journeys, once Playwright has stopped the servers: `tsx e2e/support/scan-for-numbers.ts`.
 * Proves the portals kept no full card or bank account number the journeys typed: none in any
 * table of the database each e2e server used (nor anywhere in its files, so a deleted row counts
 * too), in each server's log, or in an e-mail either sent. Prints each place a number was found and exits 1.
 */
import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { e2ePortals } from '../../playwright.config';
import { decodeMail } from './mail';
import { secretTestNumbers } from './test-numbers';

interface Finding {
  number: string;
  where: string;
}

// Digits may be written in groups: "4242 4242 4242 4242" or "4242-4242-...".
const searches = secretTestNumbers.map((number) => ({
  number,
  pattern: new RegExp([...number].join('[ -]?')),
}));

function findIn(text: string, where: string): Finding[] {
  return searches.filter((s) => s.pattern.test(text)).map((s) => ({ number: s.number, where }));
}

/**
 * What a PDF says, readably: its compressed streams inflated and its hex strings decoded, so a
 * number drawn into a signed agreement is found as surely as one in a table.
 */
export function readablePdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const pieces = [raw];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    try {
      pieces.push(inflateSync(Buffer.from(match[1] ?? '', 'latin1')).toString('latin1'));
    } catch {
      // Not a deflated stream (an image, say): its raw bytes are already in `raw`.
    }
  }
  const text = pieces.join('\n');
  const hex = [...text.matchAll(/<([0-9A-Fa-f\s]+)>/g)].map((m) =>
    Buffer.from((m[1] ?? '').replace(/\s/g, ''), 'hex').toString('latin1'),
  );
  return [text, ...hex].join('\n');
}

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

async function serverIsRunning(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

/** Every row of every table, as text, then every file of the data folder, byte by byte. */
async function scanDatabase(
  dataDir: string,
): Promise<{ findings: Finding[]; tables: number; documents: number }> {
  const findings: Finding[] = [];
  let documentsRead = 0;
  const db = await PGlite.create({ dataDir });
  let tables: { schemaname: string; tablename: string }[];
  try {
    ({ rows: tables } = await db.query<{ schemaname: string; tablename: string }>(
      `select schemaname, tablename from pg_tables
       where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
    ));
    for (const { schemaname, tablename } of tables) {
      const name = `"${schemaname.replaceAll('"', '""')}"."${tablename.replaceAll('"', '""')}"`;
      const { rows } = await db.query<{ dump: string }>(
        `select coalesce(string_agg(t::text, ' '), '') as dump from ${name} t`,
      );
      findings.push(...findIn(rows[0]?.dump ?? '', `database table ${schemaname}.${tablename}`));
    }
    // Documents are encrypted at rest: read each with the installation's key, as the portal does.
    const keyFile = path.join(path.dirname(dataDir), 'documents.key');
    if (fs.existsSync(keyFile)) {
      const key = Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'base64');
      const { rows: documents } = await db.query<{
        id: string;
        iv: Uint8Array;
        auth_tag: Uint8Array;
        ciphertext: Uint8Array;
      }>('select id, iv, auth_tag, ciphertext from documents');
      for (const document of documents) {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(document.iv));
        decipher.setAuthTag(Buffer.from(document.auth_tag));
        const plain = Buffer.concat([decipher.update(Buffer.from(document.ciphertext)), decipher.final()]);
        findings.push(...findIn(readablePdfText(plain), `document ${document.id}`));
      }
      documentsRead = documents.length;
    }
  } finally {
    await db.close();
  }
  for (const file of filesUnder(dataDir)) {
    const bytes = fs.readFileSync(file);
    for (const { number } of searches) {
      if (bytes.includes(number, 0, 'latin1')) {
        findings.push({ number, where: `database file ${path.relative(process.cwd(), file)}` });
      }
    }
  }
  return { findings, tables: tables.length, documents: documentsRead };
}

/** One portal of the journeys: its database, its server's log and the e-mails it sent. */
async function scanPortal(name: string, portal: (typeof e2ePortals)[keyof typeof e2ePortals]) {
  const dataDir = path.join(portal.dataDir, 'pglite');
  const problems: string[] = [];
  if (await serverIsRunning(portal.port)) {
    problems.push(
      `the ${name} portal still answers on port ${portal.port}: run this after Playwright has stopped it`,
    );
  }
  if (!fs.existsSync(dataDir)) problems.push(`no database at ${dataDir}: run the journeys first`);
  if (!fs.existsSync(portal.serverLog) || fs.statSync(portal.serverLog).size === 0) {
    problems.push(`no server log at ${portal.serverLog}: run the journeys first`);
  }
  if (problems.length > 0) return { problems, findings: [], tables: 0, documents: 0, mails: 0 };

  const database = await scanDatabase(dataDir);
  const findings = [
    ...database.findings,
    ...findIn(fs.readFileSync(portal.serverLog, 'utf8'), `${name} server log`),
  ];
  const mails = fs.existsSync(portal.mailDir) ? fs.readdirSync(portal.mailDir).sort() : [];
  for (const file of mails) {
    const raw = fs.readFileSync(path.join(portal.mailDir, file), 'utf8');
    const mail = decodeMail(raw);
    const where = `${name} e-mail ${file} to ${mail.to} ("${mail.subject}")`;
    const attached = mail.attachments.flatMap((a) =>
      findIn(readablePdfText(a.content), `${where}, ${a.filename}`),
    );
    const found = new Set(
      [...findIn(raw, where), ...findIn(mail.text, where), ...attached].map((f) => f.number),
    );
    for (const number of found) findings.push({ number, where });
  }
  return { problems, findings, tables: database.tables, documents: database.documents, mails: mails.length };
}

async function main() {
  const scans = [];
  for (const [name, portal] of Object.entries(e2ePortals))
    scans.push({ name, ...(await scanPortal(name, portal)) });
  const problems = scans.flatMap((scan) => scan.problems);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`Cannot scan: ${problem}.`);
    process.exit(1);
  }
  const findings = scans.flatMap((scan) => scan.findings);
  if (findings.length > 0) {
    for (const { number, where } of findings) console.error(`FOUND ${number} in ${where}`);
    console.error(`${findings.length} card or account number(s) were kept.`);
    process.exit(1);
  }
  for (const scan of scans) {
    console.log(
      `No card or account number found on the ${scan.name} portal: its database (${scan.tables} tables, ${scan.documents} decrypted documents), ` +
        `its server log or its ${scan.mails} e-mails.`,
    );
  }
}

await main();
