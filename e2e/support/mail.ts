import fs from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';
import { type E2ePortalName, e2ePortals } from '../../playwright.config';

/**
 * Where the loopback SMTP server of the running journey's portal keeps each message it received
 * (playwright.config.ts: each project names its portal in its metadata).
 */
function mailDirOfThisJourney(): string {
  const portal = (test.info().project.metadata as { portal?: E2ePortalName }).portal ?? 'main';
  return e2ePortals[portal].mailDir;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  attachments: MailAttachment[];
}

interface Part {
  header(name: string): string;
  body: string;
}

function partOf(raw: string): Part {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
  return { header, body };
}

function decodedBytes(part: Part): Buffer {
  const encoding = part.header('Content-Transfer-Encoding');
  if (/base64/i.test(encoding)) return Buffer.from(part.body.replace(/\s/g, ''), 'base64');
  if (/quoted-printable/i.test(encoding)) {
    return Buffer.from(
      part.body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      'latin1',
    );
  }
  return Buffer.from(part.body, 'latin1');
}

/** The leaf parts of a message: a single part, or each part of a multipart one, recursively. */
function leavesOf(part: Part): Part[] {
  const type = part.header('Content-Type');
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!/^multipart\//i.test(type) || !boundary) return [part];
  return part.body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => leavesOf(partOf(chunk.replace(/^\r?\n/, ''))));
}

/** A message as a person reads it: its text part decoded, and its attachments as bytes. */
export function decodeMail(raw: string): ReceivedMail {
  const message = partOf(raw);
  const leaves = leavesOf(message);
  const isAttachment = (p: Part) => /attachment|filename=/i.test(p.header('Content-Disposition'));
  const textPart = leaves.find((p) => !isAttachment(p) && /^text\/plain|^$/i.test(p.header('Content-Type')));
  return {
    to: message.header('To'),
    subject: message.header('Subject'),
    text: textPart ? decodedBytes(textPart).toString('utf8') : '',
    attachments: leaves.filter(isAttachment).map((p) => ({
      filename: /filename="?([^";]+)"?/i.exec(p.header('Content-Disposition'))?.[1] ?? '',
      contentType: p.header('Content-Type').split(';')[0]?.trim() ?? '',
      content: decodedBytes(p),
    })),
  };
}

/** Waits for a message to `to` whose subject matches, received after `since` (ms since epoch). */
export async function waitForMail(
  to: string,
  subject: RegExp,
  since: number,
  timeoutMs = 15_000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  const mailDir = mailDirOfThisJourney();
  while (Date.now() < deadline) {
    const files = fs.existsSync(mailDir) ? fs.readdirSync(mailDir).sort().reverse() : [];
    for (const file of files) {
      if (Number(file.split('-')[0]) < since) continue;
      const mail = decodeMail(fs.readFileSync(path.join(mailDir, file), 'utf8'));
      if (mail.to.includes(to) && subject.test(mail.subject)) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no e-mail to ${to} matching ${subject} arrived`);
}
