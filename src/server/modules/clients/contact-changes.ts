import { contactChannelMessages, todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import type { Mailer } from '../../adapters/mailer';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';

/** A client's sign-in and recovery channels: the address codes and notices go to, and the phone. */
export interface ContactChannels {
  email: string;
  phone: string;
}

export interface ContactChange {
  channel: 'email' | 'phone';
  from: string;
  to: string;
}

/** Who made a change, as the notice names them. */
export type ChangedBy = { role: 'client' } | { role: 'staff' } | { role: 'physician'; name: string };

/**
 * The channels a save changes (a save of one block may carry neither): an e-mail address only in
 * letter case is the same mailbox.
 */
export function contactChanges(before: ContactChannels, after: Partial<ContactChannels>): ContactChange[] {
  const changes: ContactChange[] = [];
  if (after.email !== undefined && before.email.trim().toLowerCase() !== after.email.trim().toLowerCase()) {
    changes.push({ channel: 'email', from: before.email, to: after.email });
  }
  if (after.phone !== undefined && before.phone.trim() !== after.phone.trim()) {
    changes.push({ channel: 'phone', from: before.phone, to: after.phone });
  }
  return changes;
}

/**
 * A physician's change of a client's e-mail address or phone number is refused (403), each under
 * the form's own name of the field; null when the changes are none.
 */
export function physicianContactRefusal(
  changes: ContactChange[],
  fieldNames: Record<ContactChange['channel'], string>,
): HttpError | null {
  const fields: Record<string, string> = {};
  for (const change of changes) {
    fields[fieldNames[change.channel]] =
      change.channel === 'email'
        ? contactChannelMessages.physicianEmailRefused
        : contactChannelMessages.physicianPhoneRefused;
  }
  const first = changes[0];
  if (!first) return null;
  return new HttpError('CHANGE_NOT_PERMITTED', fields[fieldNames[first.channel]] as string, fields);
}

const byWhom = (by: ChangedBy) =>
  by.role === 'client' ? 'from your account' : by.role === 'staff' ? "by the bank's staff" : `by ${by.name}`;

// A phone number is shown by its last digits only: the notice may reach the wrong person.
const phoneShown = (phone: string) => (phone ? `ending in ${phone.slice(-4)}` : '(none)');

/**
 * Tells the client of a change of their e-mail address or phone number, at the old address and
 * the new one (the address of record alone when only the phone changed), in the caller's
 * transaction: the notice leaves only if the change is committed.
 */
export async function announceContactChanges(
  tx: Database | Transaction,
  mailer: Mailer,
  input: {
    client: { firstName: string; clientActId: string };
    before: ContactChannels;
    changes: ContactChange[];
    by: ChangedBy;
    contactUrl: string;
    now: Date;
  },
) {
  if (input.changes.length === 0) return;
  const email = input.changes.find((c) => c.channel === 'email');
  const lines = input.changes.map((c) =>
    c.channel === 'email'
      ? `E-mail address: changed from ${c.from} to ${c.to}. Sign-in notices and password recovery codes now go to ${c.to}.`
      : `Phone number: changed from ${phoneShown(c.from)} to ${phoneShown(c.to)}.`,
  );
  const what =
    input.changes.length === 2
      ? 'e-mail address and phone number'
      : email
        ? 'e-mail address'
        : 'phone number';
  const was = input.changes.length === 2 ? 'were' : 'was';
  const recipients = email ? [email.from, email.to] : [input.before.email];
  for (const to of new Set(recipients)) {
    await mailer.enqueue(tx, {
      to,
      subject: `Client Portal: your ${what} ${was} changed`,
      text: [
        `Dear ${input.client.firstName},`,
        `The ${what} of your Client Portal account (Client ID ${input.client.clientActId}) ${was} changed ${byWhom(input.by)} on ${isoToUsDate(todayFor(input.now))}:`,
        lines.join('\n'),
        `If you did not make or ask for this change, please contact us right away at ${input.contactUrl} so we can secure your account.`,
      ].join('\n\n'),
    });
  }
}
