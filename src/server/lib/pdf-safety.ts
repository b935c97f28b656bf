import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject, PDFStream } from 'pdf-lib';
import { documentMessages } from '../../domain/documents';

/**
 * Names that make a PDF do something when it is opened or clicked, rather than show a page:
 * scripts, actions that open files or programs or send data, additional actions on events,
 * embedded and attached files, Flash and XFA forms. A plain page-to-page /OpenAction or a link
 * (/URI) is no such thing; an /OpenAction that runs a script is caught by its /JavaScript.
 */
const ACTIVE_NAMES = new Set([
  'JS',
  'JavaScript',
  'AA',
  'Launch',
  'SubmitForm',
  'ImportData',
  'GoToE',
  'GoToR',
  'Rendition',
  'EmbeddedFile',
  'EmbeddedFiles',
  'FileAttachment',
  'RichMedia',
  'XFA',
]);

const PDF_HEADER = '%PDF-';

/** Signatures of other formats that would make the file a polyglot: ZIP, HTML. */
const FOREIGN_SIGNATURES = [
  new RegExp(String.fromCharCode(0x50, 0x4b, 0x03, 0x04)), // a ZIP entry
  new RegExp(String.fromCharCode(0x50, 0x4b, 0x05, 0x06)), // a ZIP directory's end
  /<!doctype\s+html/i,
  /<html[\s>]/i,
  /<script[\s>]/i,
  /<iframe[\s>]/i,
  /<body[\s>]/i,
];

/** A name as a reader sees it: every #xx escape decoded, lower-case hex too (pdf-lib decodes only upper). */
const decodeName = (name: string) =>
  name.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** Every name in an object, as key or value, without following references. */
function* namesIn(object: PDFObject): Generator<string> {
  if (object instanceof PDFName) {
    yield decodeName(object.decodeText());
  } else if (object instanceof PDFStream) {
    yield* namesIn(object.dict);
  } else if (object instanceof PDFDict) {
    for (const [key, value] of object.entries()) {
      yield decodeName(key.decodeText());
      yield* namesIn(value);
    }
  } else if (object instanceof PDFArray) {
    for (const element of object.asArray()) yield* namesIn(element);
  }
}

/** Names written in the file outside stream data, for objects a lenient parser might have skipped. */
function rawNames(text: string): string[] {
  const outsideStreams = text.replace(/(?<![A-Za-z])stream\r?\n[\s\S]*?endstream/g, ' ');
  return [...outsideStreams.matchAll(/\/((?:[^\s()<>[\]{}/%#]|#[0-9a-fA-F]{2})+)/g)].map((m) =>
    decodeName(m[1] as string),
  );
}

/**
 * Why an uploaded PDF cannot be kept, or null. It must be one plain PDF from its first byte
 * (nothing before the header, no ZIP or HTML inside: no polyglot), parse with pdf-lib, unencrypted
 * (else its compressed objects could not be read), and carry no active content in any object,
 * compressed object streams included. Each refusal asks the client to print it to PDF again,
 * which gives a plain document.
 */
export async function pdfSafetyProblem(bytes: Uint8Array): Promise<string | null> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!text.startsWith(PDF_HEADER) || text.indexOf(PDF_HEADER, 1) !== -1) return documentMessages.notPlainPdf;
  if (FOREIGN_SIGNATURES.some((signature) => signature.test(text))) return documentMessages.notPlainPdf;
  if (rawNames(text).some((name) => ACTIVE_NAMES.has(name))) return documentMessages.activeContent;

  let document: PDFDocument;
  try {
    document = await PDFDocument.load(bytes, { updateMetadata: false });
    // pdf-lib reads leniently: a file without a single page is no report.
    if (document.getPageCount() === 0) return documentMessages.notPlainPdf;
  } catch {
    return documentMessages.notPlainPdf;
  }
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    for (const name of namesIn(object)) {
      if (ACTIVE_NAMES.has(name)) return documentMessages.activeContent;
    }
  }
  return null;
}
