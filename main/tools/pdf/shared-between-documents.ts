import type { FontName } from './fonts';
import { deflatedSubset } from './fonts';

/**
 * What a new document shares with the other documents of the process, through pdfkit's own
 * objects (it has no options for these): a kit of 10,000 certificates sets the same words in the
 * same fonts 10,000 times, and should lay them out, subset and compress them about once.
 */

interface EmbeddedFont {
  layoutCache?: Record<string, unknown>;
  encode(text: string): unknown;
}

// Per font, the characters most documents set: letters, digits and the punctuation of our own
// sentences and of file names; headings in bold; hashes and ids in mono. Spaced, so that no two of
// them are set as a ligature.
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const COMMON_CHARACTERS: Record<FontName, string> = {
  regular: spaced(`${ALPHANUMERIC}.,:;()-_/’“”—–`),
  bold: spaced(`${ALPHANUMERIC}—-.,:`),
  mono: spaced('0123456789abcdef-'),
};

function spaced(characters: string): string {
  return Array.from(characters).join(' ');
}

// Words laid out and scaled, per font, for every document of the process: 10,000 certificates set
// the same labels 10,000 times. A fresh store every so many documents bounds it (file names and
// hashes bring new words without end).
const sharedLayouts = new Map<FontName, { words: Record<string, unknown>; documents: number }>();
const DOCUMENTS_PER_LAYOUT_STORE = 200;

/**
 * Readies one of our fonts in a new document:
 * - its subset starts with the same glyphs in the same order in every document, so that
 *   certificates whose text uses no others embed the very same font bytes, encoded and compressed
 *   once (fonts.ts). The text of a certificate uses most of them anyway.
 * - with layouts remembered, the words it lays out are shared with the other documents.
 */
export function prepareFont(doc: PDFKit.PDFDocument, name: FontName, shareLayouts: boolean): void {
  doc.font(name);
  const font = (doc as unknown as { _font: EmbeddedFont })._font;
  if (shareLayouts) {
    let store = sharedLayouts.get(name);
    if (!store || store.documents >= DOCUMENTS_PER_LAYOUT_STORE) {
      store = { words: Object.create(null) as Record<string, unknown>, documents: 0 };
      sharedLayouts.set(name, store);
    }
    store.documents++;
    font.layoutCache = store.words;
  }
  font.encode(COMMON_CHARACTERS[name]);
}

interface StreamRef {
  data: { Filter?: string };
  compress: boolean;
  end(chunk?: Uint8Array | string): void;
}

/**
 * A font subset shared across documents (fonts.ts) goes in already compressed, instead of being
 * deflated again in every certificate: the same bytes pdfkit would write, without the work.
 */
export function withSharedFontStreams(doc: PDFKit.PDFDocument): void {
  const internals = doc as unknown as { ref(data?: object): StreamRef };
  const ref = internals.ref.bind(doc);
  internals.ref = (data) => {
    const made = ref(data);
    const end = made.end.bind(made);
    made.end = (chunk) => {
      const deflated = deflatedSubset(chunk);
      if (deflated && made.compress) {
        made.compress = false;
        made.data.Filter = 'FlateDecode';
        return end(deflated);
      }
      return end(chunk);
    };
    return made;
  };
}
