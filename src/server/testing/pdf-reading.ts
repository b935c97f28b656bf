import { inflateSync } from 'node:zlib';
import { PDFArray, type PDFDocument, PDFName, PDFRawStream, type PDFRef } from 'pdf-lib';

/**
 * Reading back the PDFs the portal writes (pdf-lib, Helvetica, deflated content streams), for
 * the API tests and the journeys alike.
 */

function contentStreamsOf(doc: PDFDocument, pageIndex: number): Buffer[] {
  const page = doc.getPage(pageIndex);
  const contents = page.node.get(PDFName.of('Contents'));
  const refs: unknown[] = contents instanceof PDFArray ? contents.asArray() : [contents];
  return refs.map((ref) => {
    const stream = doc.context.lookup(ref as PDFRef);
    if (!(stream instanceof PDFRawStream)) throw new Error('a page content stream is not a raw stream');
    const filter = stream.dict.get(PDFName.of('Filter'));
    const bytes = Buffer.from(stream.getContents());
    return filter === PDFName.of('FlateDecode') ? inflateSync(bytes) : bytes;
  });
}

/** The text drawn on a page: the `<hex> Tj` operands pdf-lib writes, decoded, one line each. */
export function pageText(doc: PDFDocument, pageIndex: number): string {
  const lines: string[] = [];
  for (const stream of contentStreamsOf(doc, pageIndex)) {
    for (const match of stream.toString('latin1').matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      lines.push(Buffer.from(match[1] ?? '', 'hex').toString('latin1'));
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
