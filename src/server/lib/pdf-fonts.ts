import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';

/**
 * Text in the PDFs the server draws (signed forms, their certificate page, receipts), in every
 * script a client may type: Noto Sans for Latin (Polish, Vietnamese...), Greek and Cyrillic, and
 * Noto Sans SC for Chinese and Japanese characters, both embedded as subsets of the glyphs used.
 * A string is drawn in runs, each in the font that has its characters, and measured the same way.
 * The font files are read once per process; the CJK ones (10 MB each) only when a document needs them.
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

/** One font file as the process keeps it: its bytes, read once, and its advance widths. */
interface Face {
  bytes: Uint8Array;
  unitsPerEm: number;
  covers(codePoint: number): boolean;
  advance(codePoint: number): number;
}

const faces = new Map<string, Promise<Face>>();

/** Each font file parsed once per process: pdf-lib asks fontkit for it again in every document. */
const parsed = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>();
const parseOnce: typeof fontkit = {
  create(bytes, postscriptName) {
    const known = postscriptName === undefined ? parsed.get(bytes) : undefined;
    return known ?? fontkit.create(bytes, postscriptName);
  },
};

function loadFace(family: Family, weight: Weight): Promise<Face> {
  const file = FILES[family][weight];
  let face = faces.get(file);
  if (!face) {
    face = readFile(require.resolve(file)).then((buffer) => {
      const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      const font = fontkit.create(bytes);
      parsed.set(bytes, font);
      const covered = new Map<number, boolean>();
      const advances = new Map<number, number>();
      return {
        bytes,
        unitsPerEm: font.unitsPerEm,
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

interface Embedded {
  face: Face;
  font: PDFFont;
}

export class PdfFonts {
  private constructor(
    private readonly embedded: { latin: Record<Weight, Embedded>; cjk: Record<Weight, Embedded> | null },
  ) {}

  /**
   * The fonts of one document. `texts` is everything the document will draw beyond fixed English
   * wording (`bold`: what it draws in bold): a CJK face is embedded only when one of them needs it;
   * Chinese in bold text not announced is drawn with the regular CJK face.
   */
  static async embed(
    doc: PDFDocument,
    texts: { regular: Iterable<string>; bold?: Iterable<string> },
  ): Promise<PdfFonts> {
    doc.registerFontkit(parseOnce);
    const needsCjk = (list: Iterable<string> | undefined) => {
      for (const text of list ?? []) if (CJK.test(text)) return true;
      return false;
    };
    const embed = async (family: Family, weight: Weight): Promise<Embedded> => {
      const face = await loadFace(family, weight);
      return { face, font: await doc.embedFont(face.bytes, { subset: true, features: PLAIN_GLYPHS }) };
    };
    const latin = { regular: await embed('latin', 'regular'), bold: await embed('latin', 'bold') };
    const boldCjk = needsCjk(texts.bold);
    let cjk: Record<Weight, Embedded> | null = null;
    if (boldCjk || needsCjk(texts.regular)) {
      const regular = await embed('cjk', 'regular');
      cjk = { regular, bold: boldCjk ? await embed('cjk', 'bold') : regular };
    }
    return new PdfFonts({ latin, cjk });
  }

  /** The text split into runs, each in the font that draws it (combining marks stay with their letter). */
  /** The face that draws a character, given the face of the one before (a combining mark stays with its letter). */
  private faceFor(codePoint: number, previous: Embedded | null, weight: Weight): Embedded {
    const latin = this.embedded.latin[weight];
    const cjk = this.embedded.cjk?.[weight];
    if (codePoint < 0x300) return latin;
    if (previous && COMBINING.test(String.fromCodePoint(codePoint))) return previous;
    return cjk && !latin.face.covers(codePoint) && cjk.face.covers(codePoint) ? cjk : latin;
  }

  /** The text (as `pdfText` gives it) split into runs, each in the font that draws it, with its width. */
  private runs(
    text: string,
    size: number,
    weight: Weight,
  ): { text: string; width: number; embedded: Embedded }[] {
    const runs: { text: string; units: number; embedded: Embedded }[] = [];
    let last: (typeof runs)[number] | null = null;
    for (const ch of text) {
      const codePoint = ch.codePointAt(0) as number;
      const embedded = this.faceFor(codePoint, last?.embedded ?? null, weight);
      const units = embedded.face.advance(codePoint);
      if (last && last.embedded === embedded) {
        last.text += ch;
        last.units += units;
      } else {
        last = { text: ch, units, embedded };
        runs.push(last);
      }
    }
    return runs.map((run) => ({ ...run, width: (run.units * size) / run.embedded.face.unitsPerEm }));
  }

  /** The width of a line of text (as `pdfText` gives it), as `draw` lays it out. */
  widthOf(text: string, size: number, weight: Weight = 'regular'): number {
    let width = 0;
    let previous: Embedded | null = null;
    for (const ch of text) {
      const codePoint = ch.codePointAt(0) as number;
      previous = this.faceFor(codePoint, previous, weight);
      width += (previous.face.advance(codePoint) * size) / previous.face.unitsPerEm;
    }
    return width;
  }

  /** Draws one line of text at (x, y), run by run. */
  draw(page: PDFPage, text: string, options: DrawOptions): void {
    let x = options.x;
    for (const run of this.runs(pdfText(text), options.size, options.weight ?? 'regular')) {
      page.drawText(run.text, {
        x,
        y: options.y,
        size: options.size,
        font: run.embedded.font,
        color: options.color,
      });
      x += run.width;
    }
  }
}
