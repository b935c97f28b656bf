import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  forgetServerAddress,
  recordServerAddress,
  runningServerAddress,
  SERVER_ADDRESS_FILE,
} from './server-address';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-address-'));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A process id that has just ended. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

describe('the running server address the link scripts read', () => {
  it('is what the running server recorded, and holds no key', () => {
    const address = { publicUrl: 'http://localhost:3100', pid: process.pid, linkKey: 'DATA_DIR' as const };
    expect(recordServerAddress(dataDir, address)).toBeNull();
    expect(runningServerAddress(dataDir)).toEqual(address);
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(dataDir, SERVER_ADDRESS_FILE), 'utf8')))).toEqual(
      ['publicUrl', 'pid', 'linkKey'],
    );
  });

  it('is none once that server has stopped, or when it was killed without removing it', () => {
    recordServerAddress(dataDir, {
      publicUrl: 'http://localhost:3100',
      pid: process.pid,
      linkKey: 'DATA_DIR',
    });
    forgetServerAddress(dataDir, process.pid);
    expect(runningServerAddress(dataDir)).toBeNull();
    expect(fs.existsSync(path.join(dataDir, SERVER_ADDRESS_FILE))).toBe(false);

    recordServerAddress(dataDir, {
      publicUrl: 'http://localhost:3100',
      pid: endedPid(),
      linkKey: 'DATA_DIR',
    });
    expect(runningServerAddress(dataDir)).toBeNull();
  });

  it("a stopping server leaves another server's address in place", () => {
    recordServerAddress(dataDir, {
      publicUrl: 'http://localhost:3200',
      pid: process.pid,
      linkKey: 'DATA_DIR',
    });
    forgetServerAddress(dataDir, process.pid + 1);
    expect(runningServerAddress(dataDir)?.publicUrl).toBe('http://localhost:3200');
  });

  it('is none when nothing was recorded or the file is not one', () => {
    expect(runningServerAddress(dataDir)).toBeNull();
    fs.writeFileSync(path.join(dataDir, SERVER_ADDRESS_FILE), '{"publicUrl": 3}');
    expect(runningServerAddress(dataDir)).toBeNull();
    fs.writeFileSync(path.join(dataDir, SERVER_ADDRESS_FILE), 'not json');
    expect(runningServerAddress(dataDir)).toBeNull();
  });
});
