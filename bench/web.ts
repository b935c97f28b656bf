/**
 * npm run bench, web part (DESIGN.md section 10): what the sign-in page downloads, gzip, from the
 * built files, against its budgets (150 kB of JS, 25 kB of CSS); then Lighthouse 12 performance
 * scores of every page of the three portals and the public pages (issue 24: mobile >= 95, desktop
 * >= 98), signed in as the demo client, physician (acting for her) and admin, on mobile and
 * desktop, in /usr/bin/chromium, against the built app served in demo mode on PGlite. It prints
 * figures and never fails on them; on a loaded machine the scores fall, so read them on a quiet one.
 *
 * Builds the web app first unless BENCH_SKIP_BUILD is set; CHROMIUM_PATH overrides the browser;
 * BENCH_PAGE (a page's name as printed, or a portal: public, client, physician, staff) measures
 * those pages only; BENCH_DETAILS prints the top
 * items of Lighthouse's diagnostics (boot-up time, main-thread work, long tasks, unused JS, the LCP
 * element and its phases, the requests) under each score.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { generate } from 'otplib';
import { DEMO_STAFF_EMAIL, DEMO_STAFF_PASSWORD, DEMO_STAFF_TOTP_SECRET } from '../src/server/db/seed';
import { createPaymentLinkToken, linkSecret } from '../src/server/lib/link-tokens';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'dist/web');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BUDGET = { js: 150 * 1024, css: 25 * 1024 };
const GOAL = { mobile: 95, desktop: 98 };

// Static imports between built chunks; `import("./x.js")` (a route loaded later) is not one.
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["']\.\/([^"']+\.js)["']/g;

function gzipSize(file: string): number {
  const precompressed = `${file}.gz`;
  if (fs.existsSync(precompressed)) return fs.statSync(precompressed).size;
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** The files the sign-in page loads: index.html's script, its preloads and styles, and every module they import statically. */
export function signInFiles(dir: string): { js: string[]; css: string[] } {
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const refs = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => path.join(dir, m[1] ?? ''));
  const entries = [
    ...refs(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...refs(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ];
  const css = refs(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
  const js = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (js.has(file)) continue;
    js.add(file);
    const code = fs.readFileSync(file, 'utf8');
    for (const match of code.matchAll(STATIC_IMPORT))
      queue.push(path.join(path.dirname(file), match[1] ?? ''));
  }
  return { js: [...js], css };
}

function kB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

function reportSizes() {
  const files = signInFiles(webDir);
  const js = files.js.reduce((sum, file) => sum + gzipSize(file), 0);
  const css = files.css.reduce((sum, file) => sum + gzipSize(file), 0);
  console.log('\nWeb: the sign-in page as built (gzip)');
  console.log(
    `  JS   ${kB(js).padStart(9)}  in ${files.js.length} files   (budget ${kB(BUDGET.js)})${js > BUDGET.js ? '  OVER' : ''}`,
  );
  console.log(
    `  CSS  ${kB(css).padStart(9)}  in ${files.css.length} files   (budget ${kB(BUDGET.css)})${css > BUDGET.css ? '  OVER' : ''}`,
  );
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['bench/bench-server.ts'], {
    cwd: root,
    env: { ...process.env, BENCH_KIND: 'pglite', BENCH_WEB: 'true', BENCH_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    lines.on('line', (line) => {
      try {
        const message = JSON.parse(line) as { ready?: boolean; port?: number };
        if (message.ready && message.port) resolve(message.port);
      } catch {}
    });
  });
  return { child, port };
}

async function startChromium(profile: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    chromium,
    [
      '--headless=new',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const lines = readline.createInterface({ input: child.stderr as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`chromium exited (${code})`)));
    lines.on('line', (line) => {
      const match = line.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//);
      if (match) resolve(Number(match[1]));
    });
  });
  return { child, port };
}

/** Signs in through the API as a browser would, and answers the session cookie. */
async function postForCookie(url: string, body: object, cookie?: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const next = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
  if (!response.ok || !next) throw new Error(`bench sign-in failed at ${url}: ${response.status}`);
  return next;
}

/** One cookie per portal: Jane (client), Dr. Alvarez acting for Jane (physician), the demo admin (staff). */
async function signInEveryPortal(base: string) {
  const client = await postForCookie(`${base}/api/pay/login`, {
    username: 'ACT10001',
    password: 'DemoClient#2026',
  });
  let physician = await postForCookie(`${base}/api/pay/physician_login`, {
    username: 'PHY20001',
    password: 'DemoPhysician#2026',
  });
  physician = await postForCookie(`${base}/api/pay/set_ActingClient`, { clientId: 'ACT10001' }, physician);
  let staff = await postForCookie(`${base}/api/staff/login`, {
    email: DEMO_STAFF_EMAIL,
    password: DEMO_STAFF_PASSWORD,
  });
  staff = await postForCookie(
    `${base}/api/staff/verify_totp`,
    { code: await generate({ secret: DEMO_STAFF_TOTP_SECRET }) },
    staff,
  );
  return { client, physician, staff };
}

interface BenchPage {
  portal: 'public' | 'client' | 'physician' | 'staff';
  name: string;
  path: string;
}

/** Every page of the three portals and the public pages (the router's table, src/web/app/router.tsx). */
function pagesToMeasure(paymentToken: string): BenchPage[] {
  return [
    { portal: 'public', name: 'Sign-in', path: '/' },
    { portal: 'public', name: 'Physician sign-in', path: '/physician' },
    { portal: 'public', name: 'Staff sign-in', path: '/staff' },
    { portal: 'public', name: 'Forgot password', path: '/forgot-password' },
    { portal: 'public', name: 'Payment by link', path: `/updatepaymentinformation?t=${paymentToken}` },
    { portal: 'public', name: 'Newborn agreement', path: '/newbornfinanceagreement' },
    { portal: 'client', name: 'Client Information', path: '/client-information' },
    { portal: 'client', name: 'Client Activity', path: '/client-activity' },
    { portal: 'client', name: 'Payment Information', path: '/payment-information' },
    { portal: 'client', name: 'Client consent', path: '/form-document/Consent-form' },
    { portal: 'client', name: 'Screening', path: '/form-document/Infectious-disease' },
    { portal: 'client', name: 'Stem Cell Request', path: '/stem-cell-request' },
    { portal: 'client', name: 'Storage plans', path: '/ACT-banking-storage-plans' },
    { portal: 'client', name: 'Store', path: '/store' },
    { portal: 'physician', name: 'My Clients', path: '/my-clients' },
    { portal: 'physician', name: 'Physician consent', path: '/client-consent' },
    { portal: 'physician', name: 'New sample', path: '/initial-processing' },
    { portal: 'physician', name: 'Physician screening', path: '/infectious-disease' },
    { portal: 'physician', name: 'Cell Requests', path: '/cell-requests' },
    { portal: 'physician', name: 'Request cells', path: '/request-cells' },
    { portal: 'physician', name: 'Physician payment', path: '/physician/payment-information' },
    { portal: 'staff', name: 'Staff home', path: '/staff/home' },
    { portal: 'staff', name: 'Clients', path: '/staff/clients' },
    { portal: 'staff', name: 'Client record', path: '/staff/clients/ACT10002' },
    { portal: 'staff', name: 'Vial Requests queue', path: '/staff/queues/vial-requests' },
    { portal: 'staff', name: 'Billing', path: '/staff/billing' },
    { portal: 'staff', name: 'Staff Accounts', path: '/staff/admin/accounts' },
    { portal: 'staff', name: 'Audit Trail', path: '/staff/admin/audit' },
    { portal: 'staff', name: 'Shipping Calendar', path: '/staff/admin/calendar' },
    { portal: 'staff', name: 'Price Book', path: '/staff/admin/prices' },
  ];
}

async function performance(url: string, chromePort: number, form: 'mobile' | 'desktop', cookie?: string) {
  const flags: Flags = {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    extraHeaders: cookie ? { Cookie: cookie } : undefined,
  };
  const result = await lighthouse(url, flags, form === 'desktop' ? desktopConfig : undefined);
  const lhr = result?.lhr;
  const score = lhr?.categories.performance?.score;
  const metric = (id: string) => lhr?.audits[id]?.displayValue ?? '-';
  return {
    problem: lhr?.runtimeError?.message ?? null,
    score: typeof score === 'number' ? Math.round(score * 100) : null,
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    offenders: lhr ? offenders(lhr) : [],
  };
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** With BENCH_DETAILS: the top items of the diagnostics that say where the time goes. */
function offenders(lhr: Lhr): string[] {
  if (!process.env.BENCH_DETAILS) return [];
  const lines: string[] = [];
  const short = (url: unknown) => String(url ?? '').replace(/^https?:\/\/[^/]+/, '');
  const items = (id: string) =>
    ((lhr.audits[id]?.details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? []).slice(
      0,
      5,
    );
  const ms = (value: unknown) => `${Math.round(Number(value ?? 0))} ms`;
  for (const item of items('bootup-time'))
    lines.push(
      `bootup       ${short(item.url).padEnd(44)} total ${ms(item.total)}  script ${ms(item.scripting)}`,
    );
  for (const item of items('mainthread-work-breakdown'))
    lines.push(`main thread  ${String(item.groupLabel ?? item.group).padEnd(44)} ${ms(item.duration)}`);
  for (const item of items('render-blocking-resources'))
    lines.push(`blocking     ${short(item.url).padEnd(44)} ${ms(item.wastedMs)}`);
  for (const item of items('unused-javascript'))
    lines.push(
      `unused JS    ${short(item.url).padEnd(44)} ${kB(Number(item.wastedBytes ?? 0))} of ${kB(Number(item.totalBytes ?? 0))}`,
    );
  for (const item of items('long-tasks'))
    lines.push(`long task    ${short(item.url).padEnd(44)} ${ms(item.duration)} at ${ms(item.startTime)}`);
  const lcp = items('largest-contentful-paint-element');
  const node = (lcp[0] as { items?: Array<{ node?: { snippet?: string } }> } | undefined)?.items?.[0]?.node;
  if (node?.snippet) lines.push(`LCP element  ${node.snippet.slice(0, 100)}`);
  const phases = (lcp[1] as { items?: Array<{ phase?: string; timing?: number }> } | undefined)?.items ?? [];
  if (phases.length > 0)
    lines.push(`LCP phases   ${phases.map((p) => `${p.phase} ${ms(p.timing)}`).join(', ')}`);
  const observed = (lhr.audits.metrics?.details as { items?: Array<Record<string, unknown>> } | undefined)
    ?.items?.[0];
  if (observed)
    lines.push(
      `observed     FCP ${ms(observed.observedFirstContentfulPaint)}, LCP ${ms(observed.observedLargestContentfulPaint)} (unthrottled, before simulation)`,
    );
  const chains = lhr.audits['network-requests']?.details as
    | { items?: Array<Record<string, unknown>> }
    | undefined;
  for (const item of chains?.items ?? [])
    lines.push(
      `request      ${short(item.url).slice(0, 44).padEnd(44)} ${ms(item.networkRequestTime)} -> ${ms(item.networkEndTime)}  ${kB(Number(item.transferSize ?? 0))}`,
    );
  return lines;
}

async function reportLighthouse() {
  if (!fs.existsSync(chromium)) {
    console.log(`\nLighthouse skipped: no Chromium at ${chromium} (set CHROMIUM_PATH).`);
    return;
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-web-'));
  const dataDir = path.join(scratch, 'data');
  const server = await startServer(dataDir);
  const browser = await startChromium(path.join(scratch, 'chromium'));
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const cookies = await signInEveryPortal(base);
    const token = createPaymentLinkToken(linkSecret(dataDir, undefined), 'ACT10002', new Date());
    // BENCH_PAGE: a page's name or a portal ("client"); the staff's TOTP session is signed in once.
    const wanted = process.env.BENCH_PAGE?.toLowerCase();
    const pages = pagesToMeasure(token).filter(
      (p) => !wanted || p.name.toLowerCase() === wanted || p.portal === wanted,
    );
    console.log(
      `\nWeb: Lighthouse 12 performance, ${pages.length} pages (goal: mobile >= 95, desktop >= 98)`,
    );
    const below: string[] = [];
    for (const page of pages) {
      for (const form of ['mobile', 'desktop'] as const) {
        const cookie = page.portal === 'public' ? undefined : cookies[page.portal];
        const m = await performance(`${base}${page.path}`, browser.port, form, cookie);
        if (m.score !== null && m.score < GOAL[form]) below.push(`${page.name} (${form} ${m.score})`);
        console.log(
          `  ${page.portal.padEnd(9)} ${page.name.padEnd(20)} ${form.padEnd(8)} ${String(m.score ?? '-').padStart(3)}` +
            (m.problem
              ? `   ${m.problem}`
              : `   FCP ${m.fcp}  LCP ${m.lcp}  TBT ${m.tbt}  CLS ${m.cls}${m.score !== null && m.score < GOAL[form] ? '  BELOW GOAL' : ''}`),
        );
        for (const line of m.offenders) console.log(`      ${line}`);
      }
    }
    console.log(below.length === 0 ? '  Every page met its goal.' : `  Below the goal: ${below.join(', ')}`);
  } finally {
    for (const child of [browser.child, server.child]) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (!process.env.BENCH_SKIP_BUILD) {
  const build = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the web build failed');
}
reportSizes();
await reportLighthouse();
