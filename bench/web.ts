/**
 * npm run bench, web part (DESIGN.md section 10): what the sign-in page downloads, gzip, from the
 * built files, against its budgets (150 kB of JS, 25 kB of CSS); then Lighthouse 12 performance
 * scores of the sign-in page and Client Information on mobile and desktop, in /usr/bin/chromium,
 * against the built app served in demo mode on PGlite. It prints figures and never fails on them.
 *
 * Builds the web app first unless BENCH_SKIP_BUILD is set; CHROMIUM_PATH overrides the browser;
 * BENCH_PAGE ("Sign-in" or "Client Information") measures one page only; BENCH_DETAILS prints the top
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

async function signIn(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/pay/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ACT10001', password: 'DemoClient#2026' }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (!response.ok || !cookie) throw new Error(`bench sign-in failed: ${response.status}`);
  return cookie;
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
  const server = await startServer(path.join(scratch, 'data'));
  const browser = await startChromium(path.join(scratch, 'chromium'));
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const cookie = await signIn(server.port);
    console.log('\nWeb: Lighthouse 12 performance (goal: mobile >= 95, desktop >= 98)');
    const pages = [
      { name: 'Sign-in', url: `${base}/`, cookie: undefined },
      { name: 'Client Information', url: `${base}/client-information`, cookie },
    ];
    for (const page of pages.filter((p) => !process.env.BENCH_PAGE || p.name === process.env.BENCH_PAGE)) {
      for (const form of ['mobile', 'desktop'] as const) {
        const m = await performance(page.url, browser.port, form, page.cookie);
        const below = m.score !== null && m.score < GOAL[form] ? '  BELOW GOAL' : '';
        console.log(
          `  ${page.name.padEnd(19)} ${form.padEnd(8)} ${String(m.score ?? '-').padStart(3)}` +
            (m.problem
              ? `   ${m.problem}`
              : `   FCP ${m.fcp}  LCP ${m.lcp}  TBT ${m.tbt}  CLS ${m.cls}${below}`),
        );
        for (const line of m.offenders) console.log(`      ${line}`);
      }
    }
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
