import { PDFDocument, rgb } from 'pdf-lib';
import { encode } from 'uqr';
import { vialShipment } from '../../../domain/price-book';
import { PdfFonts } from '../../lib/pdf-fonts';
import type { ShipmentRequest } from './carrier-adapter';

/** A 4 x 6 inch thermal label, in points. */
const LABEL = { width: 288, height: 432, margin: 16 };
const BLACK = rgb(0, 0, 0);

/** "123456789012" as printed under a barcode: "1234 5678 9012". */
export function spacedTrackingNumber(trackingNumber: string): string {
  return trackingNumber.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Lines of at most `width` characters, broken between words (a longer word is cut). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word.slice(0, width);
    }
  }
  if (line) lines.push(line);
  return lines.slice(0, 4);
}

/**
 * The offline carrier's label: sender, recipient, service, the tracking number in large type and
 * as a QR barcode, the declared contents, the dry shipper's id and our reference.
 */
export async function renderLabelPdf(
  request: ShipmentRequest,
  trackingNumber: string,
  issuedAt: Date,
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Shipping label ${trackingNumber}`);
  doc.setCreator('Client Portal');
  doc.setProducer('Client Portal');
  doc.setCreationDate(issuedAt);
  doc.setModificationDate(issuedAt);
  const { shipper } = vialShipment;
  const to = request.recipient;
  const lines = {
    from: [shipper.company, ...shipper.streetLines, `${shipper.city} ${shipper.state} ${shipper.zip}`],
    to: [
      to.contactName,
      to.company,
      ...to.streetLines,
      `${to.city} ${to.state} ${to.zip}`,
      `Phone ${to.phone}`,
    ].filter(Boolean),
    facts: [
      `Ship date: ${request.shipDate}`,
      `Contents: ${request.contents}`,
      ...(request.dryShipperId ? [`Dry shipper: ${request.dryShipperId}`] : []),
      `Reference: ${request.reference}`,
    ],
  };
  const fonts = await PdfFonts.embed(doc, {
    regular: [...lines.from, ...lines.facts],
    bold: [...lines.to, spacedTrackingNumber(trackingNumber)],
  });
  const page = doc.addPage([LABEL.width, LABEL.height]);
  const x = LABEL.margin;
  let y = LABEL.height - LABEL.margin;
  // Wrapped at words to what fits the label's width at that size (about half an em a character).
  const write = (text: string, size: number, weight: 'regular' | 'bold' = 'regular') => {
    const perLine = Math.floor((LABEL.width - 2 * LABEL.margin) / (size * 0.55));
    for (const line of wrap(text, perLine)) {
      y -= size + 3;
      fonts.draw(page, line, { x, y, size, weight });
    }
  };

  write('FedEx PRIORITY OVERNIGHT', 14, 'bold');
  y -= 4;
  write('FROM', 7, 'bold');
  for (const line of lines.from) write(line, 8);
  y -= 6;
  page.drawLine({ start: { x, y }, end: { x: LABEL.width - x, y }, thickness: 1, color: BLACK });
  y -= 4;
  write('TO', 8, 'bold');
  for (const line of lines.to) write(line, 11, 'bold');
  y -= 6;
  page.drawLine({ start: { x, y }, end: { x: LABEL.width - x, y }, thickness: 1, color: BLACK });
  y -= 4;
  write('TRACKING NUMBER', 7, 'bold');
  write(spacedTrackingNumber(trackingNumber), 18, 'bold');

  // The tracking number as a QR code, each module a black square.
  const qr = encode(trackingNumber, { ecc: 'M', border: 2 });
  const moduleSize = 3;
  const qrTop = y - 8;
  qr.data.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (!dark) return;
      page.drawRectangle({
        x: x + c * moduleSize,
        y: qrTop - (r + 1) * moduleSize,
        width: moduleSize,
        height: moduleSize,
        color: BLACK,
      });
    });
  });
  y = qrTop - qr.size * moduleSize - 6;
  for (const line of lines.facts) write(line, 8);
  await fonts.finish();
  return Buffer.from(await doc.save());
}
