import fs from 'node:fs';
import path from 'node:path';

/** Where the loopback SMTP server of the journeys keeps each message it received. */
export const mailDir = path.resolve('.tmp/e2e-mail');

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

/** A single-part message as a person reads it: quoted-printable and base64 bodies decoded. */
export function decodeMail(raw: string): ReceivedMail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
  let text = rest.join('\n\n');
  const encoding = header('Content-Transfer-Encoding');
  if (/quoted-printable/i.test(encoding)) {
    text = text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  } else if (/base64/i.test(encoding)) {
    text = Buffer.from(text.replace(/\s/g, ''), 'base64').toString('utf8');
  }
  return { to: header('To'), subject: header('Subject'), text };
}

/** Waits for a message to `to` whose subject matches, received after `since` (ms since epoch). */
export async function waitForMail(
  to: string,
  subject: RegExp,
  since: number,
  timeoutMs = 15_000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
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

/** Every message received so far, for the checks that nothing secret was e-mailed. */
export function allMail(): ReceivedMail[] {
  if (!fs.existsSync(mailDir)) return [];
  return fs.readdirSync(mailDir).map((file) => decodeMail(fs.readFileSync(path.join(mailDir, file), 'utf8')));
}
