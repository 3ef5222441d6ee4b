// The part of fontkit (a dependency of pdfkit) Evidence Desk uses: whether a font has a glyph.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
    layout(text: string): unknown;
  }
  export function create(buffer: Buffer): Font;
}
