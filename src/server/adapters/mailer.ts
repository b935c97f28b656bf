import nodemailer from 'nodemailer';
import type { Database } from '../db/client';
import { outboxMessages } from '../db/schema';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
}

/** Real SMTP through nodemailer. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    async close() {
      transport.close();
    },
  };
}

/**
 * Without SMTP the message is composed by nodemailer as usual and kept in the outbox table,
 * readable at /dev/outbox in demo mode. The log line names the subject only: no address, no body.
 */
export function outboxMailer(db: Database, from: string, log: Log): Mailer {
  const transport = nodemailer.createTransport({ jsonTransport: true });
  return {
    kind: 'outbox',
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      await db
        .insert(outboxMessages)
        .values({ recipient: mail.to, subject: mail.subject, textBody: mail.text });
      log.info({ mail: { subject: mail.subject } }, 'mail written to the outbox');
    },
    async close() {},
  };
}
