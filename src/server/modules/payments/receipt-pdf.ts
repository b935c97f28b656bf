import { PDFDocument, rgb } from 'pdf-lib';
import { type Receipt, receiptLines } from '../../../domain/receipt';
import { PdfFonts, pdfText } from '../../lib/pdf-fonts';

const PAGE = { width: 612, height: 792, margin: 56 };
const GREY = rgb(0.35, 0.35, 0.35);

/** One page: the bank's receipt for one approved payment, drawn from its ledger row. */
export async function renderReceiptPdf(receipt: Receipt, issuedAt: Date): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle('Receipt');
  doc.setAuthor('Client Portal');
  doc.setCreator('Client Portal');
  doc.setProducer('Client Portal');
  doc.setCreationDate(issuedAt);
  doc.setModificationDate(issuedAt);
  const lines = receiptLines(receipt);
  const fonts = await PdfFonts.embed(doc, {
    regular: lines.map((line) => line.value),
    bold: lines.map((line) => line.label),
  });
  const page = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;

  fonts.draw(page, 'Receipt', { x: PAGE.margin, y: y - 20, size: 20, weight: 'bold' });
  y -= 34;
  fonts.draw(page, 'Client Portal', { x: PAGE.margin, y: y - 10, size: 10, color: GREY });
  y -= 34;
  for (const line of lines) {
    fonts.draw(page, line.label, { x: PAGE.margin, y: y - 11, size: 11, weight: 'bold' });
    const value = Array.from(pdfText(line.value)).slice(0, 90).join('');
    fonts.draw(page, value, { x: PAGE.margin + 170, y: y - 11, size: 11 });
    y -= 22;
  }
  y -= 12;
  fonts.draw(page, 'Thank you. Keep this receipt for your records.', {
    x: PAGE.margin,
    y: y - 10,
    size: 10,
    color: GREY,
  });
  await fonts.finish();
  return Buffer.from(await doc.save());
}
