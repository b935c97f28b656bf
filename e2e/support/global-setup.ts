import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { e2eSmtpPort } from '../../playwright.config';
import { mailDir } from './mail';

/**
 * A real SMTP server on loopback for the journeys: the portal sends to it exactly as it would
 * to the bank's mail relay, and each message lands in a file the journeys read.
 */
export default async function globalSetup() {
  fs.rmSync(mailDir, { recursive: true, force: true });
  fs.mkdirSync(mailDir, { recursive: true });
  let sequence = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        sequence += 1;
        const name = `${Date.now()}-${String(sequence).padStart(4, '0')}.eml`;
        fs.writeFileSync(path.join(mailDir, name), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(e2eSmtpPort, '127.0.0.1', () => resolve());
  });
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
