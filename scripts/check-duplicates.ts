/**
 * Repeated code may only shrink. jscpd (configured by .jscpd.json: TypeScript and TSX of src and
 * scripts, blocks of six lines or more, tests and test helpers excluded) counts the clones; the
 * count and the duplicated lines must not rise above the ceilings kept in
 * scripts/duplicates-baseline.json. The ceilings are lowered as refactors land, never raised to
 * let new copies in. Prints the clones when a ceiling is passed and exits 1.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** What jscpd counts over a tree. */
export interface DuplicateCount {
  clones: number;
  duplicatedLines: number;
  /** Each clone as "a.ts:10-24 ~ b.ts:40-54", for the report. */
  places: string[];
}

/** The ceilings the count may reach and not pass. */
export interface DuplicateCeiling {
  clones: number;
  duplicatedLines: number;
}

interface JscpdFile {
  name: string;
  start: number;
  end: number;
}

interface JscpdReport {
  duplicates: { firstFile: JscpdFile; secondFile: JscpdFile }[];
  statistics: { total: { clones: number; duplicatedLines: number } };
}

/** Runs jscpd in `cwd` over `paths` with the config file `config`, and reads its JSON report. */
export function countDuplicates(cwd: string, paths: string[], config: string): DuplicateCount {
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'jscpd-'));
  try {
    const result = spawnSync(
      path.join(root, 'node_modules/.bin/jscpd'),
      ['--config', config, '--reporters', 'json', '--output', output, '--silent', ...paths],
      { cwd, encoding: 'utf8', env: { ...process.env, JSCPD_NO_TIPS: '1' } },
    );
    const reportFile = path.join(output, 'jscpd-report.json');
    if (result.status !== 0 || !fs.existsSync(reportFile)) {
      throw new Error(`jscpd failed (exit ${result.status}):\n${result.stderr}${result.stdout}`);
    }
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as JscpdReport;
    const where = (file: JscpdFile) => `${file.name}:${file.start}-${file.end}`;
    return {
      clones: report.statistics.total.clones,
      duplicatedLines: report.statistics.total.duplicatedLines,
      places: report.duplicates.map((clone) => `${where(clone.firstFile)} ~ ${where(clone.secondFile)}`),
    };
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
}

/** Why the count fails its ceilings; none when it stays within both. */
export function judgeDuplicates(count: DuplicateCount, ceiling: DuplicateCeiling): string[] {
  const problems: string[] = [];
  if (count.clones > ceiling.clones) {
    problems.push(`${count.clones} clones, more than the ceiling of ${ceiling.clones}`);
  }
  if (count.duplicatedLines > ceiling.duplicatedLines) {
    problems.push(
      `${count.duplicatedLines} duplicated lines, more than the ceiling of ${ceiling.duplicatedLines}`,
    );
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseline = JSON.parse(
    fs.readFileSync(path.join(root, 'scripts/duplicates-baseline.json'), 'utf8'),
  ) as { ceiling: DuplicateCeiling };
  const count = countDuplicates(root, ['src', 'scripts'], path.join(root, '.jscpd.json'));
  const problems = judgeDuplicates(count, baseline.ceiling);
  if (problems.length > 0) {
    for (const place of count.places) console.error(place);
    console.error(`\nRepeated code grew: ${problems.join('; ')} (scripts/duplicates-baseline.json).`);
    console.error('Make the repeated code one piece rather than raising the ceiling.');
    process.exit(1);
  }
  const room =
    count.clones < baseline.ceiling.clones
      ? ` (below the ceiling of ${baseline.ceiling.clones}: lower it in scripts/duplicates-baseline.json)`
      : '';
  console.log(
    `Repeated code: ${count.clones} clones, ${count.duplicatedLines} duplicated lines in src and scripts${room}.`,
  );
}
