import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * Font subsets made by HarfBuzz's subsetter (`harfbuzzjs`' hb-subset WebAssembly, no imports),
 * for the PDFs the server draws. fontkit's own subsetter (what pdf-lib's `subset: true` uses)
 * writes Noto Sans glyphs that viewers draw as scattered letters, so the PDFs embed a font that
 * is already a subset, whole. A subset keeps the glyphs of the characters given (mapped by the
 * font's cmap, nothing substituted: the layout tables are left out) and their advance widths,
 * renumbered from glyph 0 (.notdef, kept with its outline); hinting instructions are left out.
 */

const require = createRequire(import.meta.url);

interface HbSubset {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

// From hb.h and hb-subset.h.
const HB_MEMORY_MODE_READONLY = 1;
const HB_SUBSET_SETS_DROP_TABLE_TAG = 3;
const HB_SUBSET_FLAGS_NO_HINTING = 0x1;
const HB_SUBSET_FLAGS_NOTDEF_OUTLINE = 0x40;
const tag = (name: string) =>
  ((name.charCodeAt(0) << 24) |
    (name.charCodeAt(1) << 16) |
    (name.charCodeAt(2) << 8) |
    name.charCodeAt(3)) >>>
  0;
/** Substitution and positioning: the PDFs draw each character with the glyph its code point maps to. */
const LAYOUT_TABLES = ['GSUB', 'GPOS', 'GDEF', 'BASE', 'JSTF', 'MATH'].map(tag);

let subsetter: Promise<HbSubset> | null = null;

function hbSubset(): Promise<HbSubset> {
  if (!subsetter) {
    subsetter = readFile(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm')).then(async (wasm) => {
      const { instance } = await WebAssembly.instantiate(wasm);
      const hb = instance.exports as unknown as HbSubset;
      hb._initialize();
      return hb;
    });
    subsetter.catch(() => {
      subsetter = null;
    });
  }
  return subsetter;
}

/** A font file loaded into the subsetter once per process (its bytes stay in WebAssembly memory). */
export class SubsettableFont {
  private constructor(
    private readonly hb: HbSubset,
    private readonly face: number,
  ) {}

  static async load(bytes: Uint8Array): Promise<SubsettableFont> {
    const hb = await hbSubset();
    const data = hb.malloc(bytes.byteLength);
    if (!data) throw new Error('font subsetter: out of memory');
    new Uint8Array(hb.memory.buffer, data, bytes.byteLength).set(bytes);
    const blob = hb.hb_blob_create(data, bytes.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
    const face = hb.hb_face_create(blob, 0);
    hb.hb_blob_destroy(blob);
    // No hb_subset_preprocess: it costs half a second for Noto Sans and saves under a millisecond a subset.
    return new SubsettableFont(hb, face);
  }

  /** A TrueType font with the glyphs of these characters only. */
  subset(codePoints: Iterable<number>): Uint8Array {
    const { hb } = this;
    const input = hb.hb_subset_input_create_or_fail();
    if (!input) throw new Error('font subsetter: out of memory');
    let result = 0;
    try {
      const unicodes = hb.hb_subset_input_unicode_set(input);
      for (const codePoint of codePoints) hb.hb_set_add(unicodes, codePoint);
      const dropped = hb.hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG);
      for (const table of LAYOUT_TABLES) hb.hb_set_add(dropped, table);
      hb.hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_NO_HINTING | HB_SUBSET_FLAGS_NOTDEF_OUTLINE);
      result = hb.hb_subset_or_fail(this.face, input);
    } finally {
      hb.hb_subset_input_destroy(input);
    }
    if (!result) throw new Error('font subsetter: the subset failed');
    const blob = hb.hb_face_reference_blob(result);
    try {
      const length = hb.hb_blob_get_length(blob);
      const data = hb.hb_blob_get_data(blob, 0);
      if (!length || !data) throw new Error('font subsetter: the subset is empty');
      return new Uint8Array(hb.memory.buffer, data, length).slice();
    } finally {
      hb.hb_blob_destroy(blob);
      hb.hb_face_destroy(result);
    }
  }
}
