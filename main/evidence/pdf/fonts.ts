import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

let loaded: Record<FontName, LoadedFont> | undefined;

/** The fonts, read and parsed once per process (10,000 certificates parse them once). */
export function fonts(): Record<FontName, LoadedFont> {
  loaded ??= Object.fromEntries(
    Object.entries(FONT_FILES).map(([name, file]) => {
      const bytes = readFileSync(require.resolve(file));
      const font = openFont(bytes);
      return [name, { font, covers: (codePoint: number) => font.hasGlyphForCodePoint(codePoint) }];
    }),
  ) as Record<FontName, LoadedFont>;
  return loaded;
}

/**
 * Text a font cannot draw would print as empty boxes, and a file name that cannot be read is
 * worse than one written as code points: those characters become "U+5951", and the exact name
 * stays in the attached receipt.
 */
export function drawable(text: string, font: FontName = 'regular'): string {
  const { covers } = fonts()[font];
  let result = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    result +=
      covers(codePoint) || codePoint < 0x20
        ? char
        : `[U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}]`;
  }
  return result;
}
