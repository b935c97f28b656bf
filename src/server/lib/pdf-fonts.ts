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
};

/** One font file as the process keeps it: its bytes, read once, and its advance widths. */
interface Face {
  bytes: Uint8Array;
  unitsPerEm: number;
  covers(codePoint: number): boolean;
  advance(codePoint: number): number;
}

const faces = new Map<string, Promise<Face>>();

function loadFace(family: Family, weight: Weight): Promise<Face> {
  const file = FILES[family][weight];
  let face = faces.get(file);
  if (!face) {
    face = readFile(require.resolve(file)).then((buffer) => {
      const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      const font = fontkit.create(bytes);
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

/**
 * A string as drawn: composed (NFC), line breaks and tabs as one space, other control characters
 * left out. Nothing is replaced: every other character is drawn as typed.
 */
export function pdfText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\r\n\t]+/g, ' ')
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
   * wording: the CJK faces are embedded only when one of them needs it.
   */
  static async embed(doc: PDFDocument, texts: Iterable<string>): Promise<PdfFonts> {
    doc.registerFontkit(fontkit);
    let needsCjk = false;
    for (const text of texts) {
      if (CJK.test(text)) {
        needsCjk = true;
        break;
      }
    }
    const embed = async (family: Family, weight: Weight): Promise<Embedded> => {
      const face = await loadFace(family, weight);
      return { face, font: await doc.embedFont(face.bytes, { subset: true, features: PLAIN_GLYPHS }) };
    };
    const family = async (name: Family) => ({
      regular: await embed(name, 'regular'),
      bold: await embed(name, 'bold'),
    });
    return new PdfFonts({ latin: await family('latin'), cjk: needsCjk ? await family('cjk') : null });
  }

  /** The text split into runs, each in the font that draws it (combining marks stay with their letter). */
  private runs(text: string, weight: Weight): { text: string; codePoints: number[]; embedded: Embedded }[] {
    const latin = this.embedded.latin[weight];
    const cjk = this.embedded.cjk?.[weight];
    const runs: { text: string; codePoints: number[]; embedded: Embedded }[] = [];
    for (const ch of pdfText(text)) {
      const codePoint = ch.codePointAt(0) as number;
      const last = runs.at(-1);
      let embedded = latin;
      if (last && /\p{M}/u.test(ch)) embedded = last.embedded;
      else if (cjk && !latin.face.covers(codePoint) && cjk.face.covers(codePoint)) embedded = cjk;
      if (last && last.embedded === embedded) {
        last.text += ch;
        last.codePoints.push(codePoint);
      } else runs.push({ text: ch, codePoints: [codePoint], embedded });
    }
    return runs;
  }

  private static width(run: { codePoints: number[]; embedded: Embedded }, size: number): number {
    let units = 0;
    for (const codePoint of run.codePoints) units += run.embedded.face.advance(codePoint);
    return (units * size) / run.embedded.face.unitsPerEm;
  }

  /** The width of a line of text, as `draw` lays it out. */
  widthOf(text: string, size: number, weight: Weight = 'regular'): number {
    let width = 0;
    for (const run of this.runs(text, weight)) width += PdfFonts.width(run, size);
    return width;
  }

  /** Draws one line of text at (x, y), run by run. */
  draw(page: PDFPage, text: string, options: DrawOptions): void {
    let x = options.x;
    for (const run of this.runs(text, options.weight ?? 'regular')) {
      page.drawText(run.text, {
        x,
        y: options.y,
        size: options.size,
        font: run.embedded.font,
        color: options.color,
      });
      x += PdfFonts.width(run, options.size);
    }
  }
}
