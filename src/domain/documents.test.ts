import { describe, expect, it } from 'vitest';
import { documentMessages, LAB_REPORT_MAX_BYTES, labReportProblem, looksLikePdf } from './documents';

const text = (s: string) => new TextEncoder().encode(s);
const pdf = (body = '1 0 obj << >> endobj\n') => text(`%PDF-1.7\n${body}trailer << >>\n%%EOF\n`);

describe('lab report uploads', () => {
  it('accepts a small PDF by its content', () => {
    expect(looksLikePdf(pdf())).toBe(true);
    expect(labReportProblem(pdf())).toBeNull();
  });

  it('refuses a text file, whatever its name', () => {
    expect(labReportProblem(text('Hemoglobin 14.1 g/dL\nall normal\n'))).toBe(documentMessages.notPdf);
  });

  it('refuses a file that starts like a PDF but was cut short', () => {
    expect(labReportProblem(text('%PDF-1.7\n1 0 obj << >> endobj\n'))).toBe(documentMessages.notPdf);
  });

  it('accepts the header after a few bytes of junk, as PDF readers do', () => {
    expect(looksLikePdf(new Uint8Array([0xef, 0xbb, 0xbf, ...pdf()]))).toBe(true);
  });

  it('refuses nothing selected', () => {
    expect(labReportProblem(null)).toBe(documentMessages.required);
    expect(labReportProblem(new Uint8Array())).toBe(documentMessages.required);
  });

  it.each([
    [LAB_REPORT_MAX_BYTES, null],
    [LAB_REPORT_MAX_BYTES + 1, documentMessages.tooBig],
    [600 * 1024, documentMessages.tooBig],
  ])('at %i bytes answers %s', (size, expected) => {
    const head = text('%PDF-1.7\n');
    const tail = text('\n%%EOF\n');
    const bytes = new Uint8Array(size);
    bytes.fill(0x20);
    bytes.set(head, 0);
    bytes.set(tail, size - tail.length);
    expect(labReportProblem(bytes)).toBe(expected);
  });
});
