/**
 * npm run bench:recovery: how long password recovery answers when the details match a client and
 * when they do not, for get_otp and update_Password, in process on a fresh PGlite database. The two
 * should be as long as each other (the tests prove the equal hashing work; this shows the time).
 *
 * BENCH_ROUNDS (default 30): requests per path, the paths interleaved so drift hits them alike.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { todayFor } from '../src/domain/client';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openPglite } from '../src/server/db/client';
import { seedDemoData } from '../src/server/db/seed';
import { ManualClock } from '../src/server/testing/manual-clock';

const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-recovery-'));
const database = await openPglite(dataDir);
await database.migrate();
await seedDemoData(database.db, todayFor(new Date()));
const clock = new ManualClock();
const config = loadConfig({
  DATA_DIR: dataDir,
  DEMO: 'true',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_RECOVERY_PER_IP: '1000000',
});
const app = await buildApp({ config, db: database.db, clock, webRoot: null, logger: false });

// The portal's own sign-in page asks (get_otp refuses a call from another site).
const ourPage = { 'sec-fetch-site': 'same-origin' };
const jane = { email: 'jane.doe@example.com', firstName: 'Jane', dateOfBirth: '1975-03-14' };
const stranger = { ...jane, firstName: 'Janet' };

const paths: Record<string, () => Promise<unknown>> = {
  'get_otp, details match': () =>
    app.inject({ method: 'GET', url: '/api/pay/get_otp', query: jane, headers: ourPage }),
  'get_otp, no match': () =>
    app.inject({ method: 'GET', url: '/api/pay/get_otp', query: stranger, headers: ourPage }),
  'update_Password, details match, wrong code': () =>
    app.inject({
      method: 'POST',
      url: '/api/pay/update_Password',
      payload: { ...jane, OneTimePassword: '000000', UpdatedPassword: 'a long benchmark passphrase' },
    }),
  'update_Password, no match': () =>
    app.inject({
      method: 'POST',
      url: '/api/pay/update_Password',
      payload: { ...stranger, OneTimePassword: '000000', UpdatedPassword: 'a long benchmark passphrase' },
    }),
};

const timings: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((name) => [name, []]));
for (const run of Object.values(paths)) await run(); // warm up (the dummy hash is made once)
for (let round = 0; round < rounds; round++) {
  // A new hour each round: every get_otp that matches sends a code, within the hourly limit.
  clock.advance(60 * 60 * 1000);
  for (const [name, run] of Object.entries(paths)) {
    const start = process.hrtime.bigint();
    await run();
    timings[name]?.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
for (const [name, values] of Object.entries(timings)) {
  console.log(`${name.padEnd(45)} median ${median(values).toFixed(1)} ms`);
}
for (const pair of [
  ['get_otp, details match', 'get_otp, no match'],
  ['update_Password, details match, wrong code', 'update_Password, no match'],
] as const) {
  const ratio = median(timings[pair[0]] ?? []) / median(timings[pair[1]] ?? []);
  console.log(`${pair[0]} / ${pair[1]}: ${ratio.toFixed(2)}`);
}

await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
