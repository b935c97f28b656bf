import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A portal of its own for a journey that needs other settings than the shared one (a shortened
 * idle sign-out): the same server, demo mode on a fresh embedded database, on a port the system
 * chooses, mail to its outbox. Its log is in `.tmp/<name>.log`.
 */
export async function startOwnServer(name: string, env: Record<string, string>) {
  const dataDir = path.resolve(`.tmp/${name}-data`);
  const logFile = path.resolve(`.tmp/${name}.log`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');
  const server: ChildProcess = spawn(
    path.resolve('node_modules/.bin/tsx'),
    [path.resolve('src/server/server.ts')],
    {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO: 'true',
        LOG_LEVEL: 'info',
        SMTP_URL: '',
        DATABASE_URL: '',
        RATE_LIMIT_LOGIN_PER_IP: '10000',
        ...env,
      },
      stdio: ['ignore', 'pipe', log],
    },
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${name}: no "listening" in its log`)), 150_000);
    server.once('exit', (code) => reject(new Error(`${name} stopped (${code}); see ${logFile}`)));
    server.stdout?.on('data', (chunk: Buffer) => {
      fs.appendFileSync(logFile, chunk);
      seen += chunk.toString();
      const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
  });
  return {
    origin,
    /** Stopped as Playwright stops the shared one: SIGTERM, so PGlite closes its files. */
    async stop() {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      fs.closeSync(log);
    },
  };
}
