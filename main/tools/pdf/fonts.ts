import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Font } from 'fontkit';
import { create as openFont } from 'fontkit';

const require = createRequire(import.meta.url);

/**
 * The fonts PDFs are set in, embedded (subset) so a certificate reads the same on any computer.
 * DejaVu covers Latin, Greek, Cyrillic, Hebrew, Arabic, Armenian, Georgian and many symbols: file
 * names in those scripts print as they are. Mono is for hashes and ids, where 0/O and 1/l matter.
 */
const FONT_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  mono: 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf',
} as const;

export type FontName = keyof typeof FONT_FILES;

interface LoadedFont {
  /** Parsed once per process and handed to every document: parsing a font costs more than a page. */
  font: Font;
  covers(codePoint: number): boolean;
}

const loadedFont = (font: Font): LoadedFont => ({
  font: withSharedSubsets(withSharedLayouts(font)),
  covers: (codePoint) => font.hasGlyphForCodePoint(codePoint),
});

// Words laid out once per process, for every document: a kit of 10,000 certificates repeats the
// same labels on every page, and shaping a word (OpenType substitution and positioning) costs more
// than drawing it. Bounded, because file names bring new words without end.
const SHARED_LAYOUTS = 2_000;
// Longer words are hashes, ids and fingerprints, new in every certificate: kept, they only filled
// memory (a tenth of a drawing thread's heap).
const LONGEST_SHARED_WORD = 24;

type GlyphRun = { positions: object[] };
type Layout = (text: string, features?: unknown) => GlyphRun;

/**
 * The font, laying out each word once per process. pdfkit scales a run's positions in place, so
 * each caller gets its own copy of the positions; the glyphs themselves are shared, read-only.
 */
function withSharedLayouts(font: Font): Font {
  const runs = new Map<string, GlyphRun>();
  const shaping = font as unknown as { layout: Layout };
  const layout: Layout = shaping.layout.bind(font);
  shaping.layout = (text, features) => {
    if (features !== undefined || text.length > LONGEST_SHARED_WORD) return layout(text, features);
    let run = runs.get(text);
    if (!run) {
      if (runs.size >= SHARED_LAYOUTS) runs.clear();
      run = layout(text);
      runs.set(text, run);
    }
    // The same class (its advanceWidth getter sums the copied positions), with the copies.
    const copy = Object.create(Object.getPrototypeOf(run) as object) as GlyphRun;
    return Object.assign(copy, run, { positions: run.positions.map((position) => ({ ...position })) });
  };
  return font;
}

let loaded: Record<FontName, LoadedFont> | undefined;

/** The fonts, read and parsed once per process (10,000 certificates parse them once). */
export function fonts(): Record<FontName, LoadedFont> {
  loaded ??= Object.fromEntries(
    Object.entries(FONT_FILES).map(([name, file]) => [
      name,
      loadedFont(openFont(readFileSync(require.resolve(file)))),
    ]),
  ) as Record<FontName, LoadedFont>;
  return loaded;
}

// Subsets encoded once per process for each set of glyphs: certificates whose names use the same
// letters embed the same bytes, and encoding a subset costs a quarter of drawing a certificate.
const SHARED_SUBSETS = 50;

type Subset = { glyphs: number[]; encode(): Uint8Array };

/**
 * Each shared subset compressed once, as pdfkit would compress it (zlib's defaults): a font
 * stream is most of what a certificate deflates. Weak, so a subset dropped from the cache goes.
 */
const deflatedSubsets = new WeakMap<Uint8Array, Buffer>();

/** The compressed bytes of a subset this module encoded; undefined for any other bytes. */
export const deflatedSubset = (bytes: unknown): Buffer | undefined =>
  bytes instanceof Uint8Array ? deflatedSubsets.get(bytes) : undefined;

/** The font, encoding each distinct subset once (the same glyphs in the same order: the same bytes). */
function withSharedSubsets(font: Font): Font {
  const encoded = new Map<string, Uint8Array>();
  const subsetting = font as unknown as { createSubset(): Subset };
  const createSubset = subsetting.createSubset.bind(font);
  subsetting.createSubset = () => {
    const subset = createSubset();
    const encode = subset.encode.bind(subset);
    subset.encode = () => {
      const key = subset.glyphs.join(',');
      let bytes = encoded.get(key);
      if (!bytes) {
        if (encoded.size >= SHARED_SUBSETS) encoded.clear();
        bytes = encode();
        encoded.set(key, bytes);
        deflatedSubsets.set(bytes, deflateSync(bytes));
      }
      return bytes;
    };
    return subset;
  };
  return font;
}

/**
 * Chinese, Japanese and Korean need fonts of 15–20 MB each, too large to ship: the computer's
 * own are used, in this order, when a text needs them (Windows, macOS, then common Linux paths).
 */
export function fallbackFontFiles(platform = process.platform, env = process.env): string[] {
  if (platform === 'win32') {
    const dir = join(env.WINDIR ?? 'C:\\Windows', 'Fonts');
    return ['YuGothM.ttc', 'msyh.ttc', 'malgun.ttf', 'msjh.ttc', 'msgothic.ttc', 'simsun.ttc'].map((file) =>
      join(dir, file),
    );
  }
  if (platform === 'darwin')
    return [
      '/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc',
      '/System/Library/Fonts/Hiragino Sans GB.ttc',
      '/System/Library/Fonts/AppleSDGothicNeo.ttc',
      '/System/Library/Fonts/Supplemental/Arial Unicode.ttf',
      '/Library/Fonts/Arial Unicode.ttf',
    ];
  return [
    '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
    '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
    '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
    '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  ];
}

/** OS/2 fsType bit 1: the font's licence forbids embedding it in a document. */
const RESTRICTED_EMBEDDING = 0x0002;

/**
 * A font file as one face (a collection's first, which covers all its scripts), or nothing when it
 * is missing, unreadable, or its licence forbids embedding.
 */
function openFallback(file: string): LoadedFont | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const opened = openFont(readFileSync(file)) as Font | { fonts: Font[] };
    const font = 'fonts' in opened ? opened.fonts[0] : opened;
    if (!font) return undefined;
    const os2 = (font as unknown as { 'OS/2'?: { fsType?: number } })['OS/2'];
    if ((os2?.fsType ?? 0) & RESTRICTED_EMBEDDING) return undefined;
    return loadedFont(font);
  } catch {
    return undefined;
  }
}

/** Fallback fonts are read only when a text needs them, each at most once per process. */
const fallbacks = new Map<string, LoadedFont | undefined>();

function* fallbackFonts(): Generator<{ name: string; loaded: LoadedFont }> {
  for (const file of fallbackFontFiles()) {
    if (!fallbacks.has(file)) fallbacks.set(file, openFallback(file));
    const loaded = fallbacks.get(file);
    if (loaded) yield { name: `fallback:${file}`, loaded };
  }
}

export interface FontChoice {
  /** The font to register and set the text in: one of ours, or a fallback. */
  name: string;
  font: Font;
  /** The text as it will print. */
  text: string;
}

/** A character no font here draws, written so a reader can still tell it: "[U+5951]". */
const asCodePoint = (codePoint: number) => `[U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}]`;

const drawn = (codePoint: number, { covers }: LoadedFont) => codePoint < 0x20 || covers(codePoint);

/**
 * The text cut into runs, each in the font that draws it: ours wherever ours can, one of the
 * computer's only for the characters that need it (a Japanese file name inside an English
 * sentence). Characters no font can draw become "[U+5951]", as in fontFor.
 */
export function runsFor(text: string, font: FontName = 'regular'): FontChoice[] {
  const ours = fonts()[font];
  const runs: FontChoice[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    let choice: { name: string; font: Font } | undefined = drawn(codePoint, ours)
      ? { name: font, font: ours.font }
      : undefined;
    for (const { name, loaded } of choice ? [] : fallbackFonts())
      if (drawn(codePoint, loaded)) {
        choice = { name, font: loaded.font };
        break;
      }
    const printed = choice ? char : asCodePoint(codePoint);
    choice ??= { name: font, font: ours.font };
    const last = runs.at(-1);
    if (last?.name === choice.name) last.text += printed;
    else runs.push({ ...choice, text: printed });
  }
  return runs;
}

/**
 * The font that sets this text whole: ours when it covers every character, otherwise the first of
 * the computer's fonts that does (a Japanese file name prints in a Japanese font). One font per
 * text keeps measuring exact. Characters no font can draw would print as empty boxes, and a file
 * name that cannot be read is worse than one written as code points: those become "[U+5951]", and
 * the exact name stays in the attached receipt.
 */
export function fontFor(text: string, font: FontName = 'regular'): FontChoice {
  const ours = fonts()[font];
  const codePoints = Array.from(text, (char) => char.codePointAt(0) ?? 0);
  if (codePoints.every((codePoint) => drawn(codePoint, ours))) return { name: font, font: ours.font, text };
  for (const { name, loaded } of fallbackFonts())
    if (codePoints.every((codePoint) => drawn(codePoint, loaded))) return { name, font: loaded.font, text };
  const printable = codePoints
    .map((codePoint) => (drawn(codePoint, ours) ? String.fromCodePoint(codePoint) : asCodePoint(codePoint)))
    .join('');
  return { name: font, font: ours.font, text: printable };
}
