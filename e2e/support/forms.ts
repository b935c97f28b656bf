import { inflateSync } from 'node:zlib';
import { expect, type Page } from '@playwright/test';

/** Draws a zigzag on the signature pad with the mouse, as a person signs. */
export async function drawSignature(page: Page) {
  const canvas = page.getByTestId('signature-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the signature pad is not on screen');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 15, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(box.x + 15 + i * ((box.width - 30) / 12), y + (i % 2 ? -0.3 : 0.3) * box.height, {
      steps: 4,
    });
  }
  await page.mouse.up();
}

/** What a PDF says: its deflated streams inflated and the hex strings pdf-lib writes decoded. */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const streams: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    try {
      streams.push(inflateSync(Buffer.from(match[1] ?? '', 'latin1')).toString('latin1'));
    } catch {
      // An image or another stream that is not deflated text.
    }
  }
  return [...streams.join('\n').matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)]
    .map((m) => Buffer.from(m[1] ?? '', 'hex').toString('latin1'))
    .join(' ');
}

/** A valid PDF document (header, end-of-file marker) saying each of `mustSay`, with the drawn signature as an image. */
export function expectSignedPdf(pdf: Buffer, mustSay: string[], options: { signature?: boolean } = {}) {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.subarray(-8).toString('latin1')).toContain('%%EOF');
  const hasImage = /\/Subtype\s*\/Image/.test(pdf.toString('latin1'));
  expect(hasImage, 'the signature image is in the PDF').toBe(options.signature ?? true);
  const text = pdfText(pdf);
  for (const words of mustSay) expect(text).toContain(words);
}

/** The request count of one API call while a page is open, to prove a double click sends one. */
export function countRequests(page: Page, path: string) {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes(path)) count += 1;
  });
  return () => count;
}
