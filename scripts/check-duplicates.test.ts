import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countDuplicates, judgeDuplicates } from './check-duplicates';

const root = path.resolve(import.meta.dirname, '..');

/** Eight lines a service might repeat, with the names of one paid thing. */
function settleBlock(thing: string): string {
  return [
    `export function settle${thing}(order: { amountCents: number; feeCents: number; vials: number }) {`,
    '  const subtotal = order.amountCents * order.vials;',
    '  const withFee = subtotal + order.feeCents;',
    '  if (withFee <= 0) throw new Error("An order is never free of charge");',
    '  const rounded = Math.round(withFee / 100) * 100;',
    '  const receipt = { subtotal, fee: order.feeCents, total: rounded };',
    '  return { ...receipt, paid: true, at: new Date(0).toISOString() };',
    '}',
    '',
  ].join('\n');
}

describe('judgeDuplicates', () => {
  it('passes a count at its ceilings and refuses one above either', () => {
    const ceiling = { clones: 3, duplicatedLines: 40 };
    expect(judgeDuplicates({ clones: 3, duplicatedLines: 40, places: [] }, ceiling)).toEqual([]);
    expect(judgeDuplicates({ clones: 4, duplicatedLines: 40, places: [] }, ceiling)).toEqual([
      '4 clones, more than the ceiling of 3',
    ]);
    expect(judgeDuplicates({ clones: 3, duplicatedLines: 41, places: [] }, ceiling)).toEqual([
      '41 duplicated lines, more than the ceiling of 40',
    ]);
  });
});

describe('countDuplicates, with the repository config, on files written to disk', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-duplicates-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const config = path.join(root, '.jscpd.json');

  it('counts a block of six lines or more written in two source files', () => {
    fs.mkdirSync(path.join(dir, 'src/server'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/server/vials.ts'), settleBlock(''));
    fs.writeFileSync(path.join(dir, 'src/server/plans.ts'), `// plans\n${settleBlock('')}`);

    const count = countDuplicates(dir, ['src'], config);

    expect(count.clones).toBe(1);
    expect(count.duplicatedLines).toBeGreaterThanOrEqual(6);
    expect(count.places).toHaveLength(1);
    expect(judgeDuplicates(count, { clones: 0, duplicatedLines: 0 })).toHaveLength(2);
  });

  it('leaves out the same block in tests and test helpers', () => {
    fs.rmSync(path.join(dir, 'src/server/plans.ts'));
    fs.mkdirSync(path.join(dir, 'src/server/testing'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/server/vials.test.ts'), settleBlock(''));
    fs.writeFileSync(path.join(dir, 'src/server/testing/fixtures.ts'), settleBlock(''));

    expect(countDuplicates(dir, ['src'], config)).toEqual({ clones: 0, duplicatedLines: 0, places: [] });
  });
});
