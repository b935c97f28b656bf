import type { ServerAddress } from '../src/server/lib/server-address';

export interface LinkAddress {
  /** The address the link is built on. */
  publicUrl: string;
  /** What the person running the script should know about it, for stderr; empty when nothing. */
  notes: string[];
}

/**
 * The address the link scripts build their links on, and what to say about it: the server's
 * PUBLIC_URL or PORT when given; else the address the server running from the same DATA_DIR
 * recorded (src/server/lib/server-address.ts), whose key file the script signs with too; else
 * http://localhost and the default port, said plainly with how to change it.
 */
export function linkAddress(
  env: { PUBLIC_URL?: string; PORT?: string; LINK_SECRET?: string },
  configured: { publicUrl: string; dataDir: string },
  running: ServerAddress | null,
  /** The script as typed, for the example of how to run it (`npm run agreement-link`). */
  command: string,
): LinkAddress {
  if (env.PUBLIC_URL || env.PORT) return { publicUrl: configured.publicUrl, notes: [] };
  if (running) {
    const notes = [
      `(Built for the server running at ${running.publicUrl} from ${configured.dataDir}, process ${running.pid}.)`,
    ];
    if (running.linkKey === 'LINK_SECRET' && !env.LINK_SECRET) {
      notes.push(
        '(That server signs links with its LINK_SECRET: run this with the same LINK_SECRET, or the link will not open.)',
      );
    }
    if (running.linkKey === 'DATA_DIR' && env.LINK_SECRET) {
      notes.push(
        `(That server signs links with the key in ${configured.dataDir}, not LINK_SECRET: run this without LINK_SECRET, or the link will not open.)`,
      );
    }
    return { publicUrl: running.publicUrl, notes };
  }
  return {
    publicUrl: configured.publicUrl,
    notes: [
      `(Built for ${configured.publicUrl}: no server is running from ${configured.dataDir}, and neither PUBLIC_URL nor PORT is set. If the server runs elsewhere, run this with its PUBLIC_URL or PORT, and its LINK_SECRET or DATA_DIR, for example: PORT=3100 ${command})`,
    ],
  };
}
