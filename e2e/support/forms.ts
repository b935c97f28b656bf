import { expect, type Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { imagesOf, pageText } from '../../src/server/testing/pdf-reading';

/** Draws a zigzag on the signature pad with the mouse, as a person signs. */
export async function drawSignature(page: Page) {
  // The pad of the open tab: the other tab's form stays in the page, hidden.
  const canvas = page.locator('[data-testid="signature-canvas"]:visible');
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

/**
 * A valid PDF (it opens) that says each of `mustSay`, ends with its certificate page and, when
 * signed, carries the drawn 500 x 100 signature image.
 */
export async function expectSignedPdf(pdf: Buffer, mustSay: string[], options: { signature?: boolean } = {}) {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const doc = await PDFDocument.load(pdf);
  const pages = doc.getPageCount();
  expect(pages).toBeGreaterThanOrEqual(2);
  const certificate = pageText(doc, pages - 1);
  expect(certificate).toContain('Certificate of signature');
  expect(certificate).toContain('SHA-256 of the text signed');
  const images = imagesOf(doc);
  if (options.signature ?? true) expect(images).toContainEqual({ width: 500, height: 100 });
  else expect(images).toEqual([]);
  const text = Array.from({ length: pages }, (_, i) => pageText(doc, i)).join('\n');
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
