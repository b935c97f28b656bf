import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { e2ePortals } from '../../playwright.config';

/**
 * A real SMTP server on loopback for each portal of the journeys: the portal sends to it exactly as
 * it would to the bank's mail relay, and each message lands in a file of the portal's mail folder,
 * which the journeys read.
 */
export default async function globalSetup() {
  const servers = await Promise.all(
    Object.values(e2ePortals).map(({ smtpPort, mailDir }) => startSmtpServer(smtpPort, mailDir)),
  );
  return async () => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  };
}

async function startSmtpServer(port: number, mailDir: string) {
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
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}
