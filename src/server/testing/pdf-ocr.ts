import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { expect, it } from 'vitest';

/**
 * Reading a PDF the way a person does: its pages drawn by poppler (`pdftoppm`) and read back by
 * OCR (`tesseract`), so a document whose text layer is right but whose glyphs are wrong fails.
 * The text layer alone (pdf-reading.ts) cannot see that.
 */

const execFileAsync = promisify(execFile);

export const OCR_PACKAGES =
  'poppler-utils tesseract-ocr tesseract-ocr-pol tesseract-ocr-vie tesseract-ocr-chi-sim';
const LANGUAGES = ['eng', 'pol', 'vie', 'chi_sim'];

function missingTools(): string | null {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
  } catch {
    return 'pdftoppm (poppler-utils) is not installed';
  }
  let listed: string;
  try {
    listed = execFileSync('tesseract', ['--list-langs'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return 'tesseract is not installed';
  }
  const installed = new Set(listed.split('\n').map((line) => line.trim()));
  const lacking = LANGUAGES.filter((language) => !installed.has(language));
  return lacking.length > 0 ? `tesseract lacks the languages ${lacking.join(', ')}` : null;
}

const missing = missingTools();
if (missing && !process.env.CI) {
  console.warn(
    `The tests that look at PDFs are skipped: ${missing}. Install: apt-get install ${OCR_PACKAGES}`,
  );
}

/**
 * A test that looks at documents. Without poppler and tesseract it is skipped, saying what to
 * install, except in CI (`CI` set), where it fails: CI must look.
 */
export function itLooks(name: string, test: () => Promise<void>, timeout = 60_000): void {
  if (missing && !process.env.CI) {
    it.skip(`${name} (skipped: ${missing}; install ${OCR_PACKAGES})`, test);
    return;
  }
  it(
    name,
    async () => {
      if (missing) throw new Error(`${missing}: .ci/run installs ${OCR_PACKAGES}`);
      await test();
    },
    timeout,
  );
}

/** Text as compared: composed, lower case, each run of white space one space. */
export function normalised(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Each phrase is among what was read (both normalised), in the order given or not. */
export function expectSeen(seen: string, phrases: string[]): void {
  for (const phrase of phrases) expect(seen).toContain(normalised(phrase));
}

/**
 * The line after `label` in a page's text layer (`pageText`): the value a label-value row states,
 * such as the date on a certificate page, for the test to find what a person reads there.
 */
export function valueAfter(pageText: string, label: string): string {
  const lines = pageText.split('\n');
  const at = lines.indexOf(label);
  if (at < 0 || at + 1 >= lines.length) throw new Error(`no "${label}" row on the page`);
  return lines[at + 1] as string;
}

/**
 * What a person reads on the given pages (1 = the first, -1 = the last), drawn at `dpi` in grey
 * and read with the given tesseract languages (the first the name's, then English), pages read
 * at once; normalised.
 */
export async function readPdf(
  pdf: Uint8Array,
  options: { pages: number[]; languages: string[]; dpi?: number },
): Promise<string> {
  const count = (await PDFDocument.load(pdf)).getPageCount();
  const dir = await mkdtemp(join(tmpdir(), 'pdf-ocr-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const texts = await Promise.all(
      options.pages.map(async (page) => {
        const number = String(page < 0 ? count + 1 + page : page);
        const image = join(dir, `page-${number}`);
        const dpi = String(options.dpi ?? 200);
        await execFileAsync('pdftoppm', [
          '-r',
          dpi,
          '-gray',
          '-png',
          '-singlefile',
          '-f',
          number,
          '-l',
          number,
          file,
          image,
        ]);
        const { stdout } = await execFileAsync(
          'tesseract',
          [`${image}.png`, '-', '-l', options.languages.join('+')],
          {
            // One thread each: pages and test files are read side by side on few cores.
            env: { ...process.env, OMP_THREAD_LIMIT: '1' },
            maxBuffer: 4 * 1024 * 1024,
          },
        );
        return stdout;
      }),
    );
    return normalised(texts.join('\n'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
