import { PDFDocument, rgb } from 'pdf-lib';
import {
  type Receipt,
  type RefundReceipt,
  receiptLines,
  refundReceiptLines,
  refundReceiptNote,
} from '../../../domain/receipt';
import { PdfFonts, pdfText } from '../../lib/pdf-fonts';

const PAGE = { width: 612, height: 792, margin: 56 };
const GREY = rgb(0.35, 0.35, 0.35);
const KEEP = 'Keep this receipt for your records.';

/** One page: a title, label and value lines, and a closing note in grey. */
async function renderLinesPdf(
  content: { title: string; lines: { label: string; value: string }[]; note: string },
  issuedAt: Date,
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(content.title);
  doc.setAuthor('Client Portal');
  doc.setCreator('Client Portal');
  doc.setProducer('Client Portal');
  doc.setCreationDate(issuedAt);
  doc.setModificationDate(issuedAt);
  const { lines } = content;
  const fonts = await PdfFonts.embed(doc, {
    regular: lines.map((line) => line.value),
    bold: lines.map((line) => line.label),
  });
  const page = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;

  fonts.draw(page, content.title, { x: PAGE.margin, y: y - 20, size: 20, weight: 'bold' });
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
  fonts.draw(page, content.note, { x: PAGE.margin, y: y - 10, size: 10, color: GREY });
  await fonts.finish();
  return Buffer.from(await doc.save());
}

/** One page: the bank's receipt for one approved payment, drawn from its ledger row. */
export function renderReceiptPdf(receipt: Receipt, issuedAt: Date): Promise<Buffer> {
  return renderLinesPdf(
    { title: 'Receipt', lines: receiptLines(receipt), note: `Thank you. ${KEEP}` },
    issuedAt,
  );
}

/** One page: the receipt of a refund or a void, drawn from its ledger row and its charge's. */
export function renderRefundReceiptPdf(receipt: RefundReceipt, issuedAt: Date): Promise<Buffer> {
  return renderLinesPdf(
    {
      title: receipt.kind === 'void' ? 'Void receipt' : 'Refund receipt',
      lines: refundReceiptLines(receipt),
      note: `${refundReceiptNote(receipt)} ${KEEP}`,
    },
    issuedAt,
  );
}
