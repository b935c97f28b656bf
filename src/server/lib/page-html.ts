import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
// The shape of what the build writes to `page-preloads.json` (a type only: nothing of Vite loads).
import type { PagePreloads } from '../../../vite.config';

export type PageHtml = { body: string; etag: string };

const ASSET = /^\/assets\/[\w.-]+\.(js|css)$/;
const CALL = /^\/api\/[\w/]+$/;
const ROOT = '<div id="root"></div>';
/** The app's own stylesheet as Vite writes it into index.html. */
const APP_STYLESHEET = /<link rel="stylesheet" crossorigin href="(\/assets\/[\w.-]+\.css)">/g;

/**
 * A page that paints its frame first (its placeholder carries its own styles) fetches the app's
 * stylesheet without waiting for it: it is preloaded, and the app applies it before it renders
 * (src/web/app/app-styles.ts). The header then shows as the page arrives, not once the stylesheet
 * has come (Lighthouse's first paint on a phone: 2.5 s, all the page's files counted as blocking).
 */
function withAppStylesDeferred(html: string): string {
  return html.replace(
    APP_STYLESHEET,
    (_link, href: string) => `<link rel="preload" href="${href}" as="style" crossorigin data-app-styles>`,
  );
}

/** Whether a route pattern of the web app (`/form-document/:id`, `/stem-cell-request/:id?`) matches a path, as the router does: case aside, a trailing slash aside. */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (have.length > want.length) return false;
  return want.every((segment, i) => {
    const part = have[i];
    if (segment.startsWith(':')) return part !== undefined || segment.endsWith('?');
    return part !== undefined && part.toLowerCase() === segment.toLowerCase();
  });
}

function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * The app's page for an address (DESIGN.md section 10). For a signed-in page the build listed, the
 * head names the files that page needs beyond the app's own, and its first API call, so the
 * browser fetches them at once beside the app's file instead of after the app has run. The page
 * is the same for everyone at that address (nothing about the visitor is in it). Without the
 * build's list (an older build, a test's web root) every address gets index.html as it is.
 */
export function pageHtmlFor(webRoot: string): (pathname: string) => PageHtml {
  const index = fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8');
  const plain: PageHtml = { body: index, etag: etagOf(index) };
  const listFile = path.join(webRoot, 'page-preloads.json');
  if (!fs.existsSync(listFile)) return () => plain;
  const { pages } = JSON.parse(fs.readFileSync(listFile, 'utf8')) as PagePreloads;
  const variants = pages.map(({ pattern, js, css, fetch, placeholder }) => {
    const links = [
      ...fetch
        .filter((url) => CALL.test(url))
        .map((url) => `<link rel="preload" href="${url}" as="fetch" crossorigin>`),
      // crossorigin as on the stylesheet link the app adds when the page's code loads (Vite's
      // preload sets it on every file): a preload whose credentials mode differs is not used, the
      // file is fetched twice and the browser warns about it.
      ...css
        .filter((url) => ASSET.test(url))
        .map((url) => `<link rel="preload" href="${url}" as="style" crossorigin>`),
      ...js
        .filter((url) => ASSET.test(url))
        .map((url) => `<link rel="modulepreload" crossorigin href="${url}">`),
    ];
    const head = index.replace('</head>', `    ${links.join('\n    ')}\n  </head>`);
    const body = placeholder
      ? withAppStylesDeferred(head).replace(ROOT, `<div id="root">${placeholder}</div>`)
      : head;
    return { pattern, page: { body, etag: etagOf(body) } };
  });
  return (pathname) => variants.find((v) => matchesPattern(v.pattern, pathname))?.page ?? plain;
}
