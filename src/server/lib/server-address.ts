import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Where a running server can be reached, written into its DATA_DIR while it listens, so that the
 * link scripts (`npm run payment-link`, `npm run agreement-link`), which sign with the key kept in
 * the same DATA_DIR, build their links on that server's address rather than a guessed one. It
 * holds no secret: the address, the process, and where the server's link key comes from.
 */
const serverAddressSchema = z.object({
  publicUrl: z.string(),
  pid: z.number().int().positive(),
  /** The server signs links with LINK_SECRET, or with the key file of its DATA_DIR. */
  linkKey: z.enum(['LINK_SECRET', 'DATA_DIR']),
});

export type ServerAddress = z.infer<typeof serverAddressSchema>;

export const SERVER_ADDRESS_FILE = 'server-address.json';

const fileIn = (dataDir: string) => path.join(dataDir, SERVER_ADDRESS_FILE);

/** Whether a process of this machine is still running (one of another user's counts). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Written once the server listens. A failure to write is no reason not to serve: it says so. */
export function recordServerAddress(dataDir: string, address: ServerAddress): string | null {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    const temporary = `${fileIn(dataDir)}.${address.pid}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(address)}\n`);
    fs.renameSync(temporary, fileIn(dataDir));
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Removed when the server stops, unless another server has written its own since. */
export function forgetServerAddress(dataDir: string, pid: number): void {
  const recorded = readRecorded(dataDir);
  if (recorded?.pid !== pid) return;
  fs.rmSync(fileIn(dataDir), { force: true });
}

function readRecorded(dataDir: string): ServerAddress | null {
  try {
    const parsed = serverAddressSchema.safeParse(JSON.parse(fs.readFileSync(fileIn(dataDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The address of the server running from this DATA_DIR, or null: none recorded, or the one
 * recorded has stopped without removing it (killed).
 */
export function runningServerAddress(dataDir: string): ServerAddress | null {
  const recorded = readRecorded(dataDir);
  return recorded && isRunning(recorded.pid) ? recorded : null;
}
