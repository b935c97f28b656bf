import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { SubsettableFont } from './font-subset';

/**
 * Text in the PDFs the server draws (signed forms, their certificate page, receipts), in every
 * script a client may type: Noto Sans for Latin (Polish, Vietnamese...), Greek and Cyrillic, and
 * Noto Sans SC for Chinese and Japanese characters. A string is drawn in runs, each in the font
 * that has its characters, and measured the same way. Each font a document uses is embedded as a
 * subset of the characters it draws, made by HarfBuzz (font-subset.ts) once the document is drawn
 * (`finish`), and embedded as it is: pdf-lib's own subsetting (fontkit's) writes glyphs that viewers
 * draw as scattered letters. The font files are read and parsed once per process; the CJK ones
 * (10 MB each) only when a document needs them.
 */

export type Weight = 'regular' | 'bold';
type Family = 'latin' | 'cjk';

const FILES: Record<Family, Record<Weight, string>> = {
  latin: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  },
  cjk: {
    regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  },
};

const require = createRequire(import.meta.url);

/**
 * Shaping off: each character is drawn with the glyph its code point maps to. With the defaults,
 * fontkit decomposes some letters (the Vietnamese "ị" into "i" and a dot) and forms ligatures,
 * and the PDF's text (ToUnicode) then loses characters; it is also ten times slower.
 */
const PLAIN_GLYPHS = {
  ccmp: false,
  locl: false,
  rlig: false,
  liga: false,
  clig: false,
  calt: false,
  dlig: false,
  kern: false,
  mark: false,
  mkmk: false,
  curs: false,
  dist: false,
  abvm: false,
  blwm: false,
  rvrn: false,
  rclt: false,
  ltra: false,
  ltrm: false,
  frac: false,
  numr: false,
  dnom: false,
};

/** One font file as the process keeps it: read and parsed once, for its advance widths and subsets. */
interface Face {
  postscriptName: string;
  unitsPerEm: number;
  covers(codePoint: number): boolean;
  advance(codePoint: number): number;
  subsetter: SubsettableFont;
}

const faces = new Map<string, Promise<Face>>();

function loadFace(family: Family, weight: Weight): Promise<Face> {
  const file = FILES[family][weight];
  let face = faces.get(file);
  if (!face) {
    face = readFile(require.resolve(file)).then(async (buffer) => {
      const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      const font = fontkit.create(bytes);
      const subsetter = await SubsettableFont.load(bytes);
      const covered = new Map<number, boolean>();
      const advances = new Map<number, number>();
      return {
        postscriptName: font.postscriptName ?? file.replace(/^.*\/|\.ttf$/g, ''),
        unitsPerEm: font.unitsPerEm,
        subsetter,
        covers(codePoint) {
          let has = covered.get(codePoint);
          if (has === undefined) {
            has = font.hasGlyphForCodePoint(codePoint);
            covered.set(codePoint, has);
          }
          return has;
        },
        advance(codePoint) {
          let width = advances.get(codePoint);
          if (width === undefined) {
            width = font.glyphForCodePoint(codePoint).advanceWidth;
            advances.set(codePoint, width);
          }
          return width;
        },
      };
    });
    face.catch(() => faces.delete(file));
    faces.set(file, face);
  }
  return face;
}

// Characters Noto Sans does not have and Noto Sans SC may: Han, kana, CJK punctuation and
// symbols, full-width forms. Only a document holding one of these loads the CJK font.
const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u303f\u3200-\u33ff\uff00-\uffef]/u;

const COMBINING = /^\p{M}$/u;

/**
 * A string as drawn: composed (NFC), line breaks and tabs as one space (a no-break space too: the
 * font draws both with one glyph), other control characters left out. Nothing is replaced: every
 * other character is drawn as typed.
 */
export function pdfText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\r\n\t\u00a0]+/g, ' ')
    .replace(/\p{Cc}/gu, '');
}

/** Every string inside a value (objects, arrays), for `PdfFonts.embed` to see what will be drawn. */
export function textsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object' || value instanceof Date || value instanceof Uint8Array)
    return [];
  return Object.values(value).flatMap(textsIn);
}

export interface DrawOptions {
  x: number;
  y: number;
  size: number;
  weight?: Weight;
  color?: Color | undefined;
}

/**
 * The six capital letters a subset's name starts with (`ABCDEF+NotoSans-Regular`, ISO 32000-1
 * section 9.6.4), telling readers it is a subset; one per set of characters.
 */
function subsetTag(face: Face, codePoints: Set<number>): string {
  const digest = createHash('sha256')
    .update(`${face.postscriptName}:${[...codePoints].sort((a, b) => a - b).join(',')}`)
    .digest();
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
}

/** A run of text drawn in one face, kept until `finish` embeds the faces with the characters drawn. */
interface Run {
  page: PDFPage;
  text: string;
  face: Face;
  x: number;
  y: number;
  size: number;
  color: Color | undefined;
}

export class PdfFonts {
  private readonly runsToDraw: Run[] = [];
  private finished = false;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly faces: { latin: Record<Weight, Face>; cjk: Record<Weight, Face> | null },
  ) {}

  /**
   * The fonts of one document. `texts` is everything the document will draw beyond fixed English
   * wording (`bold`: what it draws in bold): a CJK face is loaded only when one of them needs it;
   * Chinese in bold text not announced is drawn with the regular CJK face. Text is drawn when
   * `finish` is called, before the document is saved.
   */
  static async embed(
    doc: PDFDocument,
    texts: { regular: Iterable<string>; bold?: Iterable<string> },
  ): Promise<PdfFonts> {
    doc.registerFontkit(fontkit);
    const needsCjk = (list: Iterable<string> | undefined) => {
      for (const text of list ?? []) if (CJK.test(text)) return true;
      return false;
    };
    const latin = { regular: await loadFace('latin', 'regular'), bold: await loadFace('latin', 'bold') };
    const boldCjk = needsCjk(texts.bold);
    let cjk: Record<Weight, Face> | null = null;
    if (boldCjk || needsCjk(texts.regular)) {
      const regular = await loadFace('cjk', 'regular');
      cjk = { regular, bold: boldCjk ? await loadFace('cjk', 'bold') : regular };
    }
    return new PdfFonts(doc, { latin, cjk });
  }

  /** The face that draws a character, given the face of the one before (a combining mark stays with its letter). */
  private faceFor(codePoint: number, previous: Face | null, weight: Weight): Face {
    const latin = this.faces.latin[weight];
    const cjk = this.faces.cjk?.[weight];
    if (codePoint < 0x300) return latin;
    if (previous && COMBINING.test(String.fromCodePoint(codePoint))) return previous;
    return cjk && !latin.covers(codePoint) && cjk.covers(codePoint) ? cjk : latin;
  }

  /** The text (as `pdfText` gives it) split into runs, each in the face that draws it, with its width. */
  private runs(text: string, size: number, weight: Weight): { text: string; width: number; face: Face }[] {
    const runs: { text: string; units: number; face: Face }[] = [];
    let last: (typeof runs)[number] | null = null;
    for (const ch of text) {
      const codePoint = ch.codePointAt(0) as number;
      const face = this.faceFor(codePoint, last?.face ?? null, weight);
      const units = face.advance(codePoint);
      if (last && last.face === face) {
        last.text += ch;
        last.units += units;
      } else {
        last = { text: ch, units, face };
        runs.push(last);
      }
    }
    return runs.map((run) => ({ ...run, width: (run.units * size) / run.face.unitsPerEm }));
  }

  /** The width of a line of text (as `pdfText` gives it), as `draw` lays it out. */
  widthOf(text: string, size: number, weight: Weight = 'regular'): number {
    let width = 0;
    let previous: Face | null = null;
    for (const ch of text) {
      const codePoint = ch.codePointAt(0) as number;
      previous = this.faceFor(codePoint, previous, weight);
      width += (previous.advance(codePoint) * size) / previous.unitsPerEm;
    }
    return width;
  }

  /** One line of text at (x, y), run by run; on the page once `finish` is called. */
  draw(page: PDFPage, text: string, options: DrawOptions): void {
    if (this.finished) throw new Error('PdfFonts.draw after finish: the fonts are already embedded');
    let x = options.x;
    for (const run of this.runs(pdfText(text), options.size, options.weight ?? 'regular')) {
      this.runsToDraw.push({
        page,
        text: run.text,
        face: run.face,
        x,
        y: options.y,
        size: options.size,
        color: options.color,
      });
      x += run.width;
    }
  }

  /**
   * Embeds each face used as a subset of the characters it draws (made by HarfBuzz, see
   * font-subset.ts, and embedded whole) and draws the text, in the order `draw` was called.
   */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    const characters = new Map<Face, Set<number>>();
    for (const run of this.runsToDraw) {
      let set = characters.get(run.face);
      if (!set) {
        set = new Set();
        characters.set(run.face, set);
      }
      for (const ch of run.text) set.add(ch.codePointAt(0) as number);
    }
    const fonts = new Map<Face, PDFFont>();
    for (const [face, codePoints] of characters) {
      const bytes = face.subsetter.subset(codePoints);
      const customName = `${subsetTag(face, codePoints)}+${face.postscriptName}`;
      fonts.set(face, await this.doc.embedFont(bytes, { subset: false, customName, features: PLAIN_GLYPHS }));
    }
    for (const run of this.runsToDraw) {
      run.page.drawText(run.text, {
        x: run.x,
        y: run.y,
        size: run.size,
        font: fonts.get(run.face) as PDFFont,
        color: run.color,
      });
    }
    this.runsToDraw.length = 0;
  }
}
