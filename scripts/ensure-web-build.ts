/** Builds the web app when dist/web is missing or older than the sources it is built from. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist/web/index.html');

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = [path.join(root, 'src/web'), path.join(root, 'src/domain')];
const sourceTime = Math.max(
  ...sources.map(newestIn),
  fs.statSync(path.join(root, 'package-lock.json')).mtimeMs,
);
const builtTime = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;

if (builtTime < sourceTime) {
  console.log('Building the web app…');
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
