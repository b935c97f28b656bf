import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/** The lab report's page: every hostile file below is a readable report with something added. */
async function reportDocument(): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc
    .addPage([612, 792])
    .drawText('Infectious disease panel: all negative', { x: 50, y: 700, size: 12, font });
  return doc;
}

/** pdf-lib writes compressed object streams by default: the catalog and its actions are inside one. */
const saved = async (doc: PDFDocument, useObjectStreams = true) =>
  Buffer.from(await doc.save({ useObjectStreams }));

/** A report that runs JavaScript when opened (an /OpenAction of type /JavaScript). */
export async function pdfWithOpenActionScript(useObjectStreams = true): Promise<Buffer> {
  const doc = await reportDocument();
  const action = doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(action));
  return saved(doc, useObjectStreams);
}

/** A report with a file attached to it (the /EmbeddedFiles name tree). */
export async function pdfWithEmbeddedFile(): Promise<Buffer> {
  const doc = await reportDocument();
  await doc.attach(Buffer.from('MZ not a lab result'), 'results.exe', {
    mimeType: 'application/octet-stream',
  });
  return saved(doc);
}

/** A report that starts a program when opened (an /OpenAction of type /Launch). */
export async function pdfWithLaunchAction(): Promise<Buffer> {
  const doc = await reportDocument();
  const action = doc.context.obj({ Type: 'Action', S: 'Launch', F: PDFString.of('cmd.exe') });
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(action));
  return saved(doc);
}

/** A report whose page runs a script when opened: an additional action (/AA) on the page. */
export async function pdfWithPageAdditionalAction(): Promise<Buffer> {
  const doc = await reportDocument();
  const script = doc.context.obj({ S: 'JavaScript', JS: PDFString.of('this.submitForm("x")') });
  doc.getPage(0).node.set(PDFName.of('AA'), doc.context.obj({ O: script }));
  return saved(doc);
}

/**
 * The script action written by hand with its name escaped in lower-case hex (/#4aavaScript), as
 * readers decode it and pdf-lib does not; uncompressed, so it is in the file as written.
 */
export async function pdfWithEscapedScriptName(): Promise<Buffer> {
  const plain = (await pdfWithOpenActionScript(false)).toString('latin1');
  return Buffer.from(plain.replace('/S /JavaScript', '/S /#4aavaScript'), 'latin1');
}

/** A clean report with a ZIP archive in front of it: a ZIP reader and a PDF reader both open it. */
export async function zipPrefixedPdf(): Promise<Buffer> {
  const zipHeader = Buffer.from('504b0304140000000000000000000000000000000000000000000000000000', 'hex');
  return Buffer.concat([zipHeader, await saved(await reportDocument())]);
}

/** A clean report with an HTML page in front of it. */
export async function htmlPrefixedPdf(): Promise<Buffer> {
  const html = Buffer.from('<html><body><script>fetch("/api/pay/get_Client")</script></body></html>\n');
  return Buffer.concat([html, await saved(await reportDocument())]);
}

/** A clean report carrying an HTML script in a comment after its header. */
export async function pdfWithHtmlInside(): Promise<Buffer> {
  const pdf = (await saved(await reportDocument())).toString('latin1');
  return Buffer.from(pdf.replace('%PDF-1.7\n', '%PDF-1.7\n%<script>alert(1)</script>\n'), 'latin1');
}

/** A clean report whose header is not at the first byte. */
export async function pdfWithLateHeader(): Promise<Buffer> {
  return Buffer.concat([Buffer.from('   \n'), await saved(await reportDocument())]);
}

/** A clean report, as a lab would send it. */
export async function cleanReportPdf(): Promise<Buffer> {
  return saved(await reportDocument());
}
