import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { type Receipt, receiptLines } from '../../../domain/receipt';
import { winAnsi } from '../forms/signed-pdf';

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
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;

  page.drawText('Receipt', { x: PAGE.margin, y: y - 20, size: 20, font: bold });
  y -= 34;
  page.drawText('Client Portal', { x: PAGE.margin, y: y - 10, size: 10, font, color: GREY });
  y -= 34;
  for (const line of receiptLines(receipt)) {
    page.drawText(winAnsi(line.label), { x: PAGE.margin, y: y - 11, size: 11, font: bold });
    page.drawText(winAnsi(line.value).slice(0, 90), { x: PAGE.margin + 170, y: y - 11, size: 11, font });
    y -= 22;
  }
  y -= 12;
  page.drawText('Thank you. Keep this receipt for your records.', {
    x: PAGE.margin,
    y: y - 10,
    size: 10,
    font,
    color: GREY,
  });
  return Buffer.from(await doc.save());
}
