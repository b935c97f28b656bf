import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, type PDFDocument, PDFName, PDFRawStream, type PDFRef } from 'pdf-lib';

/**
 * Reading back the PDFs the portal writes (pdf-lib, embedded Noto fonts with their ToUnicode maps,
 * deflated content streams), for the API tests and the journeys alike.
 */

function streamBytes(stream: PDFRawStream): Buffer {
  const filter = stream.dict.get(PDFName.of('Filter'));
  const bytes = Buffer.from(stream.getContents());
  return filter === PDFName.of('FlateDecode') ? inflateSync(bytes) : bytes;
}

function contentStreamsOf(doc: PDFDocument, pageIndex: number): Buffer[] {
  const page = doc.getPage(pageIndex);
  const contents = page.node.get(PDFName.of('Contents'));
  const refs: unknown[] = contents instanceof PDFArray ? contents.asArray() : [contents];
  return refs.map((ref) => {
    const stream = doc.context.lookup(ref as PDFRef);
    if (!(stream instanceof PDFRawStream)) throw new Error('a page content stream is not a raw stream');
    return streamBytes(stream);
  });
}

/** A font's codes as text, and their advance in text space units (1/1000 of the size), if known. */
interface Decoder {
  text(hex: string): string;
  width(hex: string): number | null;
}

const CODE = /[0-9A-Fa-f]{4}/g;

/** The glyph widths of a CIDFont (`W`: `first [w1 w2 ...]` entries), pdf-lib's only form. */
function cidWidths(doc: PDFDocument, font: PDFDict): (cid: number) => number {
  const descendants = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray);
  const cidFont = descendants ? doc.context.lookup(descendants.get(0)) : undefined;
  const widths = new Map<number, number>();
  let fallback = 1000;
  if (cidFont instanceof PDFDict) {
    fallback = Number(cidFont.get(PDFName.of('DW'))?.toString() ?? 1000);
    const w = cidFont.lookupMaybe(PDFName.of('W'), PDFArray);
    for (let i = 0; w && i + 1 < w.size(); i += 2) {
      const first = Number(w.get(i).toString());
      const list = doc.context.lookup(w.get(i + 1));
      if (!(list instanceof PDFArray)) break;
      for (const [k, value] of list.asArray().entries()) widths.set(first + k, Number(value.toString()));
    }
  }
  return (cid) => widths.get(cid) ?? fallback;
}

/** UTF-16BE hex (a ToUnicode destination) as a string. */
function utf16(hex: string): string {
  const bytes = Buffer.from(hex, 'hex');
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode(bytes.readUInt16BE(i));
  return text;
}

/**
 * How a font's character codes read as text: through its ToUnicode CMap (the embedded Noto fonts:
 * two-byte glyph codes), else one byte a character (the standard fonts, WinAnsi, read as Latin-1).
 */
function decoderOf(doc: PDFDocument, fontRef: unknown): Decoder {
  const font = doc.context.lookup(fontRef as PDFRef);
  const toUnicode = font instanceof PDFDict ? font.get(PDFName.of('ToUnicode')) : undefined;
  const cmapStream = toUnicode ? doc.context.lookup(toUnicode as PDFRef) : undefined;
  if (!(font instanceof PDFDict) || !(cmapStream instanceof PDFRawStream)) {
    return { text: (hex) => Buffer.from(hex, 'hex').toString('latin1'), width: () => null };
  }
  const cmap = streamBytes(cmapStream).toString('latin1');
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, dest] of (block[1] ?? '').matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>/g)) {
      map.set(Number.parseInt(code as string, 16), utf16(dest as string));
    }
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, dest] of (block[1] ?? '').matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g,
    )) {
      const first = Number.parseInt(from as string, 16);
      const start = Number.parseInt(dest as string, 16);
      for (let code = first; code <= Number.parseInt(to as string, 16); code++) {
        map.set(code, String.fromCharCode(start + code - first));
      }
    }
  }
  const widthOf = cidWidths(doc, font);
  const codes = (hex: string) => Array.from(hex.matchAll(CODE), ([code]) => Number.parseInt(code, 16));
  return {
    text: (hex) =>
      codes(hex)
        .map((code) => map.get(code) ?? '\ufffd')
        .join(''),
    width: (hex) => codes(hex).reduce((sum, code) => sum + widthOf(code), 0),
  };
}

/**
 * The text drawn on a page, one line each: the `<hex> Tj` operands pdf-lib writes, decoded with
 * the font selected (`Tf`); a run drawn where the previous one ended (a name in two fonts)
 * continues its line.
 */
export function pageText(doc: PDFDocument, pageIndex: number): string {
  const page = doc.getPage(pageIndex);
  const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
  const decoders = new Map<string, Decoder>();
  const decoderFor = (name: string): Decoder => {
    let decoder = decoders.get(name);
    if (!decoder) {
      decoder = decoderOf(doc, fonts?.get(PDFName.of(name)));
      decoders.set(name, decoder);
    }
    return decoder;
  };
  const lines: string[] = [];
  let lineEnd: { x: number; y: number } | null = null;
  for (const stream of contentStreamsOf(doc, pageIndex)) {
    const operands: string[] = [];
    let font = '';
    let size = 0;
    let at: { x: number; y: number } | null = null;
    for (const [token] of stream
      .toString('latin1')
      .matchAll(/\/[^\s/<>[\]()]+|<[0-9A-Fa-f\s]*>|[-+]?[\d.]+|[A-Za-z*'"]+/g)) {
      if (/^[/<\d.+-]/.test(token)) {
        operands.push(token);
        continue;
      }
      if (token === 'Tf') {
        font = operands.at(-2)?.slice(1) ?? '';
        size = Number(operands.at(-1));
      } else if (token === 'Tm') at = { x: Number(operands.at(-2)), y: Number(operands.at(-1)) };
      else if (token === 'BT') at = null;
      else if (token === 'Tj') {
        const hex = (operands.at(-1) ?? '').replace(/[<>\s]/g, '');
        const decoder = decoderFor(font);
        const text = decoder.text(hex);
        const continues =
          at && lineEnd && Math.abs(at.y - lineEnd.y) < 0.01 && Math.abs(at.x - lineEnd.x) < 0.5;
        if (continues && lines.length > 0) lines[lines.length - 1] += text;
        else lines.push(text);
        const width = decoder.width(hex);
        lineEnd = at && width !== null ? { x: at.x + (width * size) / 1000, y: at.y } : null;
      }
      operands.length = 0;
    }
  }
  return lines.join('\n');
}

/** The image XObjects of a PDF, with their size in pixels. */
export function imagesOf(doc: PDFDocument): { width: number; height: number }[] {
  const images: { width: number; height: number }[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const width = Number(object.dict.get(PDFName.of('Width'))?.toString());
    const height = Number(object.dict.get(PDFName.of('Height'))?.toString());
    images.push({ width, height });
  }
  return images;
}
