import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { priceBookResponseSchema } from '../../../domain/price-book';
import { siteConfigSchema } from '../../../domain/site-config';
import { recentOutboxMessages } from '../../adapters/mailer';
import { recentSmsMessages } from '../../adapters/sms/sms-adapter';
import type { AppDeps } from '../../app-deps';
import { pingDatabase } from '../../db/client';
import { priceBookInForce } from '../prices/price-book-repository';

export const healthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness and database reachability',
        tags: ['system'],
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable') }),
        },
      },
    },
    async (_request, reply) => {
      if (await pingDatabase(db)) return { status: 'ok' as const };
      return reply.code(503).send({ status: 'unavailable' as const });
    },
  );
};

/** What the pages seen before signing in need from the configuration, and nothing else. */
export const siteRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config, db, clock }) => {
  app.get(
    '/site_config',
    {
      schema: {
        summary:
          "Public settings every page shows: the contact link, and the bank's details (name, phone, where checks go, privacy notice)",
        tags: ['system'],
        response: { 200: siteConfigSchema },
      },
    },
    async () => ({ contactUrl: config.contactUrl, bank: config.bank }),
  );

  app.get(
    '/price_book',
    {
      schema: {
        summary:
          "The price book in force now: what the pages show before they charge (the bank's list prices, public like any price list). The server prices each order itself from the version in force when it is placed",
        tags: ['system'],
        response: { 200: priceBookResponseSchema },
      },
    },
    async () => {
      const { version, effectiveOn, amounts } = await priceBookInForce(db, clock.now());
      return { version, effectiveOn, amounts };
    },
  );
};

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

/**
 * Demo mode without SMTP, served over plain HTTP: every e-mail the portal sent, newest first, so a
 * new user can read it. Never registered when PUBLIC_URL is https (config.devOutbox).
 */
export const outboxRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get('/dev/outbox', { schema: { hide: true } }, async (_request, reply) => {
    const messages = await recentOutboxMessages(db);
    const items = messages
      .map(
        (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p><strong>To:</strong> ${escapeHtml(m.recipient)} · <time datetime="${m.createdAt.toISOString()}">${escapeHtml(m.createdAt.toISOString())}</time></p>
  <pre>${escapeHtml(m.textBody)}</pre>
</article>`,
      )
      .join('\n');
    reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox (demo)</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ccc;padding:1rem 0}pre{white-space:pre-wrap;background:#f5f5f5;padding:1rem}</style>
</head><body><main><h1>Outbox (demo)</h1>
<p>Every e-mail the portal sent in demo mode, newest first. This page does not exist outside demo mode, nor on a portal served over HTTPS.</p>
${items || '<p>No e-mail yet.</p>'}
</main></body></html>`);
  });
};

/** Demo mode with SMS=offline: every text message the portal sent, newest first (like /dev/outbox). */
export const smsOutboxRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get('/dev/sms-outbox', { schema: { hide: true } }, async (_request, reply) => {
    const messages = await recentSmsMessages(db);
    const items = messages
      .map(
        (m) => `<article>
  <p><strong>To:</strong> ${escapeHtml(m.recipient)} · <time datetime="${m.createdAt.toISOString()}">${escapeHtml(m.createdAt.toISOString())}</time></p>
  <pre>${escapeHtml(m.body)}</pre>
</article>`,
      )
      .join('\n');
    reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Text messages (demo)</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ccc;padding:1rem 0}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;padding:1rem}</style>
</head><body><main><h1>Text messages (demo)</h1>
<p>Every text message the portal sent in demo mode, newest first. This page does not exist outside demo mode, nor on a portal served over HTTPS.</p>
${items || '<p>No text message yet.</p>'}
</main></body></html>`);
  });
};
