import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { matchesPattern, pageHtmlFor } from './page-html';

const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-page-html-'));
const INDEX =
  '<!doctype html><html><head><title>Client Portal</title>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-f6.css"></head><body><div id="root"></div></body></html>';
const APPLIED = '<link rel="stylesheet" crossorigin href="/assets/index-f6.css">';
const DEFERRED = '<link rel="preload" href="/assets/index-f6.css" as="style" crossorigin data-app-styles>';
afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));

describe('matchesPattern', () => {
  it('matches an address as the router does: parameters, an optional last one, case and a trailing slash aside', () => {
    expect(matchesPattern('/client-information', '/client-information')).toBe(true);
    expect(matchesPattern('/client-information', '/Client-Information/')).toBe(true);
    expect(matchesPattern('/form-document/:id', '/form-document/Consent-form')).toBe(true);
    expect(matchesPattern('/form-document/:id', '/form-document')).toBe(false);
    expect(matchesPattern('/stem-cell-request/:id?', '/stem-cell-request')).toBe(true);
    expect(matchesPattern('/stem-cell-request/:id?', '/stem-cell-request/42')).toBe(true);
    expect(matchesPattern('/client-information', '/client-information/extra')).toBe(false);
    expect(matchesPattern('/client-information', '/client-activity')).toBe(false);
    expect(matchesPattern('/store', '/')).toBe(false);
  });
});

describe('pageHtmlFor', () => {
  it('without the build list, every address gets index.html as it is', () => {
    fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    const pageFor = pageHtmlFor(webRoot);
    expect(pageFor('/client-information').body).toBe(INDEX);
    expect(pageFor('/').etag).toMatch(/^"[\w-]+"$/);
  });

  it("names a signed-in page's files and first call in its head, paints its frame, and leaves other addresses alone", () => {
    fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    fs.writeFileSync(
      path.join(webRoot, 'page-preloads.json'),
      JSON.stringify({
        pages: [
          {
            pattern: '/client-information',
            js: ['/assets/portal-a1.js', '/assets/evil.js"><script>alert(1)</script>'],
            css: ['/assets/pages-b2.css'],
            fetch: ['/api/pay/session'],
            placeholder: '<div class="frame-placeholder">Client Portal</div>',
          },
          { pattern: '/store', js: ['/assets/store-c3.js'], css: [], fetch: [], placeholder: null },
          {
            pattern: '/staff/clients/:id',
            js: ['/assets/staff-layout-d4.js', '/assets/staff-client-page-e5.js'],
            css: ['/assets/pages-b2.css'],
            fetch: ['/api/staff/session'],
            placeholder: '<div class="frame-placeholder">Back Office</div>',
          },
        ],
      }),
    );
    const pageFor = pageHtmlFor(webRoot);
    const page = pageFor('/client-information');
    expect(page.body).toContain('<link rel="modulepreload" crossorigin href="/assets/portal-a1.js">');
    // The styles in the credentials mode of the link the app adds for them, or the preload goes unused.
    expect(page.body).toContain('<link rel="preload" href="/assets/pages-b2.css" as="style" crossorigin>');
    expect(page.body).toContain('<link rel="preload" href="/api/pay/session" as="fetch" crossorigin>');
    expect(page.body).toContain('<div id="root"><div class="frame-placeholder">Client Portal</div></div>');
    // Only plain asset names are ever written into the page.
    expect(page.body).not.toContain('evil');
    expect(page.body.indexOf('modulepreload')).toBeLessThan(page.body.indexOf('</head>'));

    // The frame paints at once: the app's stylesheet is fetched without holding the first paint,
    // and the app applies it before it draws (src/web/app/app-styles.ts).
    expect(page.body).toContain(DEFERRED);
    expect(page.body).not.toContain(APPLIED);

    // A page with no frame of its own to paint keeps the stylesheet as the browser applies it.
    const store = pageFor('/store');
    expect(store.body).toContain('href="/assets/store-c3.js"');
    expect(store.body).toContain('<div id="root"></div>');
    expect(store.body).toContain(APPLIED);
    expect(store.body).not.toContain('data-app-styles');

    // A back office page: its frame's files and the staff session, with the back office's header.
    const staffClient = pageFor('/staff/clients/ACT10002');
    expect(staffClient.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/staff-layout-d4.js">',
    );
    expect(staffClient.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/staff-client-page-e5.js">',
    );
    expect(staffClient.body).toContain(
      '<link rel="preload" href="/api/staff/session" as="fetch" crossorigin>',
    );
    expect(staffClient.body).not.toContain('/api/pay/session');
    expect(staffClient.body).toContain(
      '<div id="root"><div class="frame-placeholder">Back Office</div></div>',
    );
    expect(staffClient.body).toContain(DEFERRED);
    // ... and none of it on a client page, nor on the staff sign-in page.
    expect(page.body).not.toContain('staff');
    expect(pageFor('/staff').body).toBe(INDEX);

    expect(pageFor('/').body).toBe(INDEX);
    expect(pageFor('/no-such-page').body).toBe(INDEX);
    // Each variant has its own tag, the same on every call.
    expect(new Set([page.etag, store.etag, staffClient.etag, pageFor('/').etag]).size).toBe(4);
    expect(pageFor('/client-information').etag).toBe(page.etag);
  });
});
