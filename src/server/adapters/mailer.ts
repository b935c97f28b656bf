import nodemailer from 'nodemailer';
import type { Database } from '../db/client';
import { outboxMessages } from '../db/schema';

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

function messageOf(from: string, mail: Mail) {
  // Copies: nodemailer rewrites the attachment objects it is given (content to base64).
  const attachments = (mail.attachments ?? []).map((a) => ({ ...a }));
  return { from, to: mail.to, subject: mail.subject, text: mail.text, attachments };
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
      await transport.sendMail(messageOf(from, mail));
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
      await transport.sendMail(messageOf(from, mail));
      // The outbox keeps the text; an attachment is named, its content stays in the documents.
      const attached = (mail.attachments ?? []).map(
        (a) => `[Attachment: ${a.filename}, ${a.contentType}, ${a.content.length} bytes]`,
      );
      await db.insert(outboxMessages).values({
        recipient: mail.to,
        subject: mail.subject,
        textBody: [mail.text, ...attached].join('\n\n'),
      });
      log.info({ mail: { subject: mail.subject } }, 'mail written to the outbox');
    },
    async close() {},
  };
}
