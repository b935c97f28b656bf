import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayFor } from '../../../domain/client';
import { errorBodySchema } from '../../../domain/errors';
import { NEWBORN_AGREEMENT_NOT_NEWBORN, newbornAgreementApplies } from '../../../domain/newborn-agreement';
import {
  PAYMENT_LINKS_PER_CLIENT_PER_HOUR,
  paymentLinkMessages,
  sendPaymentLinkRequestSchema,
  sendPaymentLinkResponseSchema,
} from '../../../domain/staff';
import {
  AGREEMENT_LINK_EMAIL_SUBJECT,
  AGREEMENT_LINKS_TOO_MANY,
  sendAgreementLinkRequestSchema,
  sendAgreementLinkResponseSchema,
} from '../../../domain/staff-client';
import type { AppDeps } from '../../app-deps';
import { HttpError, notFound } from '../../lib/http-error';
import { createPaymentLinkToken, LINK_LIFETIME_MS, PAYMENT_LINK_PATHS } from '../../lib/link-tokens';
import { maskedEmail, maskedPhone } from '../../lib/masked-contact';
import { enforceRateLimits } from '../../lib/rate-limit';
import { noteResolvedClient } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { clientContact } from '../clients/client-directory';
import { findClientIdByAnyId } from '../clients/client-repository';
import { createNewbornAgreementLink } from '../newborn-agreement/newborn-agreement-service';

const HOUR = 60 * 60 * 1000;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** Staff (either level) send a client a signed, expiring link to the public payment page. */
export const staffLinkRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { db, clock, config, mailer, sms, linkSecret },
) => {
  app.post(
    '/send_payment_link',
    {
      config: { audit: 'send-payment-link' },
      schema: {
        summary:
          'Sends the client a signed link (7 days) to the public payment page, by e-mail or text message; at most 5 per client per hour. The link itself is never answered or logged.',
        tags: ['staff'],
        body: sendPaymentLinkRequestSchema,
        response: { 200: sendPaymentLinkResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const { channel } = request.body;
      const clientId = await findClientIdByAnyId(db, request.body.clientId);
      if (!clientId) throw notFound();
      const client = await clientContact(db, clientId);
      if (!client) throw notFound();
      noteResolvedClient(session, clientId);
      const phoneDigits = client.phone.replace(/\D/g, '');
      if (channel === 'sms' && phoneDigits.length < 10) {
        throw new HttpError('VALIDATION', paymentLinkMessages.noPhone, {
          channel: paymentLinkMessages.noPhone,
        });
      }
      const now = clock.now();
      await enforceRateLimits(
        db,
        now,
        [
          {
            key: `payment-link:client:${clientId}`,
            limit: PAYMENT_LINKS_PER_CLIENT_PER_HOUR,
            windowMs: HOUR,
          },
        ],
        paymentLinkMessages.tooMany,
      );
      const token = createPaymentLinkToken(linkSecret, client.clientActId, now);
      const link = `${config.publicUrl}${PAYMENT_LINK_PATHS[channel]}?t=${token}`;
      const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
      if (channel === 'email') {
        await mailer.send({
          to: client.email,
          subject: paymentLinkMessages.emailSubject,
          text: [
            `Dear ${client.firstName},`,
            '',
            'Please follow this link to update your payment information for annual storage:',
            '',
            link,
            '',
            `The link is for you only and works until ${expiresAt.toUTCString()}.`,
          ].join('\n'),
        });
        return { channel, sentTo: maskedEmail(client.email), expiresAt: expiresAt.toISOString() };
      }
      const sent = await sms.send({
        to: phoneDigits.length === 10 ? `+1${phoneDigits}` : `+${phoneDigits}`,
        body: `Stem cell bank: update your payment information here (valid 7 days): ${link}`,
      });
      if (!sent) throw new HttpError('SERVICE_UNAVAILABLE', paymentLinkMessages.smsFailed);
      return { channel, sentTo: maskedPhone(client.phone), expiresAt: expiresAt.toISOString() };
    },
  );

  app.post(
    '/send_agreement_link',
    {
      config: { audit: 'send-agreement-link' },
      schema: {
        summary:
          "Creates a newborn finance agreement with the figures given and e-mails its signed link (7 days) to the main contact (the client's e-mail); at most 5 per client per hour. The link is never answered.",
        tags: ['staff'],
        body: sendAgreementLinkRequestSchema,
        response: { 200: sendAgreementLinkResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const { clientId: anyId, ...figures } = request.body;
      const clientId = await findClientIdByAnyId(db, anyId);
      if (!clientId) throw notFound();
      const client = await clientContact(db, clientId);
      if (!client) throw notFound();
      noteResolvedClient(session, clientId);
      const now = clock.now();
      if (!newbornAgreementApplies(client.dateOfBirth, todayFor(now))) {
        throw new HttpError('NOT_ALLOWED_NOW', NEWBORN_AGREEMENT_NOT_NEWBORN);
      }
      await enforceRateLimits(
        db,
        now,
        [
          {
            key: `agreement-link:client:${clientId}`,
            limit: PAYMENT_LINKS_PER_CLIENT_PER_HOUR,
            windowMs: HOUR,
          },
        ],
        AGREEMENT_LINKS_TOO_MANY,
      );
      const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
      await db.transaction(async (tx) => {
        const { agreementId, path } = await createNewbornAgreementLink(
          tx,
          linkSecret,
          clientId,
          figures,
          now,
        );
        await mailer.enqueue(
          tx,
          {
            to: client.email,
            subject: AGREEMENT_LINK_EMAIL_SUBJECT,
            text: [
              `Dear ${figures.mainContact},`,
              '',
              'Please follow this link to review and sign your Newborn Finance Agreement:',
              '',
              `${config.publicUrl}${path}`,
              '',
              `The link is for you only and works until ${expiresAt.toUTCString()}.`,
            ].join('\n'),
          },
          { dedupeKey: `agreement-link:${agreementId}` },
        );
      });
      mailer.kick();
      return { sentTo: maskedEmail(client.email), expiresAt: expiresAt.toISOString() };
    },
  );
};
