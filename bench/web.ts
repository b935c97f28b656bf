/**
 * npm run bench, web part (DESIGN.md section 10): what the sign-in page downloads, gzip, from the
 * built files, against its budgets (150 kB of JS, 25 kB of CSS); then Lighthouse 12 performance
 * scores of the sign-in page and Client Information on mobile and desktop, in /usr/bin/chromium,
 * against the built app served in demo mode on PGlite. It prints figures and never fails on them.
 *
 * Builds the web app first unless BENCH_SKIP_BUILD is set; CHROMIUM_PATH overrides the browser;
 * BENCH_PAGE ("Sign-in" or "Client Information") measures one page only.
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
  };
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
