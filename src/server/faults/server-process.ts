import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * The portal as a real server process, for the fault suite: started on a given database, killed
 * with SIGKILL, started again. Every process started here is killed when the suite's process
 * exits, whatever way it exits.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const running = new Set<ChildProcess>();

function killEverything() {
  for (const child of running) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}
process.on('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killEverything();
    process.exit(130);
  });
}

export interface ServerSettings {
  port: number;
  databaseUrl: string;
  /** The owner role that migrates (DATABASE_MIGRATION_URL), when the server runs as another. */
  migrationUrl?: string;
  dataDir: string;
  documentsKey: string;
  linkSecret: string;
  /** The named point at which the process SIGKILLs itself the first time it gets there. */
  faultPoint?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly pid: number;
  readonly baseUrl: string;
  /** Settles when the process has exited. */
  readonly exited: Promise<Exit>;
  alive(): boolean;
  /** The last lines the process wrote (stdout and stderr), for a report. */
  output(lines?: number): string;
  kill(): Promise<Exit>;
  /** SIGTERM (a graceful shutdown), then SIGKILL when it takes longer than the time given. */
  stop(timeoutMs?: number): Promise<Exit>;
}

const LOG_LIMIT = 200_000;

function serverEnv(settings: ServerSettings): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    NODE_ENV: 'test',
    DATABASE_URL: settings.databaseUrl,
    ...(settings.migrationUrl ? { DATABASE_MIGRATION_URL: settings.migrationUrl } : {}),
    DEMO: 'true',
    PORT: String(settings.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${settings.port}`,
    DATA_DIR: settings.dataDir,
    LOG_LEVEL: 'warn',
    LINK_SECRET: settings.linkSecret,
    DOCUMENTS_KEY: settings.documentsKey,
    PAYMENT_GATEWAY: 'sandbox',
    // Each simulated client comes from its own address (X-Forwarded-For), as real clients do.
    TRUST_PROXY: 'true',
    RATE_LIMIT_LOGIN_PER_IP: '100000',
    RATE_LIMIT_RECOVERY_PER_IP: '100000',
    RATE_LIMIT_VERIFY_PER_IP: '100000',
    RATE_LIMIT_PAYMENT_PER_IP: '100000',
    RATE_LIMIT_PAYMENT_PER_CLIENT: '100000',
    RUN_ONCE_LEASE_MS: '10000',
    RECONCILE_INTERVAL_MS: '1000',
  };
  if (settings.faultPoint) env.FAULT_POINT = settings.faultPoint;
  return env;
}

/**
 * Starts `src/server/server.ts` with tsx loaded into node itself (`node --import tsx`), not through
 * the tsx CLI: the CLI runs the server in a child process, and a SIGKILL sent to the CLI would
 * leave that child serving.
 */
export function startServer(settings: ServerSettings): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: root,
    env: serverEnv(settings),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('the server process could not be started');
  running.add(child);
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<Exit>((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    pid: child.pid,
    baseUrl: `http://127.0.0.1:${settings.port}`,
    exited,
    alive,
    output(lines = 20) {
      return log.trimEnd().split('\n').slice(-lines).join('\n');
    },
    async kill() {
      if (alive()) child.kill('SIGKILL');
      return exited;
    },
    async stop(timeoutMs = 5000) {
      if (alive()) child.kill('SIGTERM');
      const timer = setTimeout(() => alive() && child.kill('SIGKILL'), timeoutMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
}

/** Waits until GET /api/health answers 200; fails when the process exits or the time is up. */
export async function waitUntilHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!server.alive()) {
      throw new Error(`the server exited while starting:\n${server.output()}`);
    }
    try {
      const response = await fetch(`${server.baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server was not healthy after ${timeoutMs} ms:\n${server.output()}`);
}

/** Waits for the process to exit; answers null when it is still running after the time given. */
export async function exitWithin(server: ServerProcess, timeoutMs: number): Promise<Exit | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  const result = await Promise.race([server.exited, timeout]);
  clearTimeout(timer);
  return result;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A free port in 3300-3399 (the fault suite's range), starting from a random one. */
export async function freePort(taken: number[] = []): Promise<number> {
  const start = Math.floor(Math.random() * 100);
  for (let i = 0; i < 100; i += 1) {
    const port = 3300 + ((start + i) % 100);
    if (!taken.includes(port) && (await portIsFree(port))) return port;
  }
  throw new Error('no free port in 3300-3399');
}
