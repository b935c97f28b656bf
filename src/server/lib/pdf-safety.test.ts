import { describe, expect, it } from 'vitest';
import { documentMessages, labReportProblem } from '../../domain/documents';
import {
  cleanReportPdf,
  htmlPrefixedPdf,
  pdfWithEmbeddedFile,
  pdfWithEscapedScriptName,
  pdfWithHtmlInside,
  pdfWithLateHeader,
  pdfWithLaunchAction,
  pdfWithOpenActionScript,
  pdfWithPageAdditionalAction,
  zipPrefixedPdf,
} from '../testing/hostile-pdfs';
import { pdfSafetyProblem } from './pdf-safety';

describe('a lab report must be one plain PDF without active content', () => {
  it('accepts a clean report, compressed object streams or not', async () => {
    expect(await pdfSafetyProblem(await cleanReportPdf())).toBeNull();
  });

  it.each([
    ['JavaScript run when opened, inside a compressed object stream', () => pdfWithOpenActionScript(true)],
    ['JavaScript run when opened, uncompressed', () => pdfWithOpenActionScript(false)],
    ['a script action whose name is escaped in lower-case hex', pdfWithEscapedScriptName],
    ['an embedded file', pdfWithEmbeddedFile],
    ['a launch action', pdfWithLaunchAction],
    ['an additional action on a page', pdfWithPageAdditionalAction],
  ])('refuses %s, asking to print it to PDF again', async (_case, make) => {
    expect(await pdfSafetyProblem(await make())).toBe(documentMessages.activeContent);
  });

  it.each([
    ['a ZIP in front of the PDF', zipPrefixedPdf],
    ['an HTML page in front of the PDF', htmlPrefixedPdf],
    ['HTML inside the PDF', pdfWithHtmlInside],
    ['a PDF header that is not at the first byte', pdfWithLateHeader],
    [
      'a file that starts and ends like a PDF but is none',
      async () => Buffer.from('%PDF-1.4\nnothing\n%%EOF\n'),
    ],
  ])('refuses %s as no plain PDF', async (_case, make) => {
    expect(await pdfSafetyProblem(await make())).toBe(documentMessages.notPlainPdf);
  });

  it('leaves the web’s own check (header, end marker, size) as it was: it passes these files on to the server', async () => {
    expect(labReportProblem(await pdfWithOpenActionScript())).toBeNull();
    expect(labReportProblem(await htmlPrefixedPdf())).toBeNull();
  });
});
