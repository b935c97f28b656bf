/**
 * npm run bench: authenticated GET /api/pay/get_Client against a bare primary-key select through
 * the same pool, first on PostgreSQL, then on PGlite. The server runs in a child process so the
 * load generator does not share its event loop. Prints throughput, p99 latency and their ratio.
 *
 * BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50),
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; a scratch database is made and dropped).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(import.meta.dirname, '..');

interface Measure {
  requestsPerSecond: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['bench/bench-server.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
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

async function drive(url: string, headers: Record<string, string>, duration: number): Promise<Measure> {
  const result = await autocannon({ url, connections, duration, headers });
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function measure(kind: 'postgres' | 'pglite', env: Record<string, string>) {
  const { child, port } = await startServer({ BENCH_KIND: kind, ...env });
  try {
    const cookie = await signIn(port);
    const base = `http://127.0.0.1:${port}`;
    // Warm up both paths (JIT, pool, prepared plans) before measuring.
    await drive(`${base}/api/pay/get_Client`, { cookie }, 2);
    await drive(`${base}/bench/pk`, {}, 2);
    const bare = await drive(`${base}/bench/pk`, {}, seconds);
    const portal = await drive(`${base}/api/pay/get_Client`, { cookie }, seconds);
    return { bare, portal };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

function report(kind: string, { bare, portal }: { bare: Measure; portal: Measure }) {
  const ratio = portal.requestsPerSecond / bare.requestsPerSecond;
  console.log(`\n${kind}: ${connections} connections, ${seconds} s each`);
  console.log(
    `  bare primary-key select   ${bare.requestsPerSecond.toFixed(0).padStart(7)} req/s   p99 ${bare.p99} ms` +
      (bare.non2xx + bare.errors > 0 ? `   (${bare.non2xx} non-2xx, ${bare.errors} errors)` : ''),
  );
  console.log(
    `  GET /api/pay/get_Client   ${portal.requestsPerSecond.toFixed(0).padStart(7)} req/s   p99 ${portal.p99} ms` +
      (portal.non2xx + portal.errors > 0 ? `   (${portal.non2xx} non-2xx, ${portal.errors} errors)` : ''),
  );
  console.log(`  ratio get_Client / bare   ${ratio.toFixed(2)}   (goal >= 0.60; p99 goal < 15 ms)`);
}

const scratch = `portal_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${scratch}`);
try {
  const url = new URL(adminUrl);
  url.pathname = `/${scratch}`;
  report('PostgreSQL', await measure('postgres', { BENCH_DB_URL: url.toString() }));
} finally {
  await admin.query(`drop database if exists ${scratch} with (force)`);
  await admin.end();
}
report('PGlite', await measure('pglite', {}));
