/** Lab report uploads (spec 2, sections 5 and 9): PDF only, at most 500 KB, judged by content. */
export const LAB_REPORT_MAX_BYTES = 500 * 1024;

export const documentMessages = {
  required: 'Please select a pdf file',
  notPdf: 'Invalid file format.',
  tooBig: 'File size too big. Please compress and upload under 500Kb',
  // Checked by the server only (it parses the PDF): the way out is the same for both.
  activeContent:
    'This PDF contains active content (scripts, actions or attached files). Please print the report to PDF again and upload the new file.',
  notPlainPdf:
    'This file could not be read as a plain PDF. Please print the report to PDF again and upload the new file.',
} as const;

const PDF_HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const PDF_TRAILER = [0x25, 0x25, 0x45, 0x4f, 0x46]; // "%%EOF"
// Readers accept the header within the first 1024 bytes and the trailer within the last 1024.
const SEARCH_WINDOW = 1024;

function indexOf(bytes: Uint8Array, pattern: number[], from: number, to: number): number {
  for (let i = Math.max(0, from); i <= Math.min(bytes.length, to) - pattern.length; i++) {
    if (pattern.every((b, j) => bytes[i + j] === b)) return i;
  }
  return -1;
}

/** True when the bytes are a PDF document: the header at the start and the end-of-file marker at the end. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  if (bytes.length < PDF_HEADER.length + PDF_TRAILER.length) return false;
  return (
    indexOf(bytes, PDF_HEADER, 0, SEARCH_WINDOW) !== -1 &&
    indexOf(bytes, PDF_TRAILER, bytes.length - SEARCH_WINDOW, bytes.length) !== -1
  );
}

/** Why a lab report cannot be accepted, or null. The name alone never makes a file a PDF. */
export function labReportProblem(bytes: Uint8Array | null): string | null {
  if (!bytes || bytes.length === 0) return documentMessages.required;
  if (bytes.length > LAB_REPORT_MAX_BYTES) return documentMessages.tooBig;
  if (!looksLikePdf(bytes)) return documentMessages.notPdf;
  return null;
}
