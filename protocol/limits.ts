/**
 * The bounds of everything Evidence Desk reads from the other side of a dispute (docs/security.md):
 * kits, receipts, certificate PDFs, registers, load files and the names in a production. Each is
 * far above any genuine kit and is enforced while reading, so a few hostile kilobytes cannot cost
 * gigabytes, minutes or a crash. The CLI, the app and verify.html read with the same numbers.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

export const LIMITS = {
  /** A receipt file, or the receipt a certificate carries, decompressed (genuine: 3–15 KiB). */
  receiptBytes: 1 * MiB,
  /** Arrays and objects inside one another in a receipt (genuine: 5). */
  jsonDepth: 32,
  /** Values in one receipt, all arrays and objects counted (genuine: about 150). */
  jsonValues: 20_000,
  /** Characters of one text field of a receipt we know, a name or a notice (genuine: under 300). */
  textChars: 4 * KiB,
  /** Characters of base64 in a timestamp token or one certificate (genuine: 2–8 KiB). */
  base64Chars: 96 * KiB,
  /** Certificates in a timestamp's chain (genuine: 2–4). */
  chainCertificates: 10,
  /** Lines of how-to-verify text in a receipt (genuine: 4). */
  howToLines: 64,
  /** Entries in a kit's zip (a million documents make two million: a receipt and a certificate). */
  zipEntries: 4_000_000,
  /** Expanded size of all receipts read from one zip (genuine: about 15 KiB a document). */
  zipExpandedBytes: 64 * 1024 * MiB,
  /** Expanded to compressed size of one zip entry (genuine receipts: 2–4; deflate's own most: 1,032). */
  zipEntryRatio: 100,
  /** A certificate PDF (genuine: 60–400 KiB). */
  pdfBytes: 64 * MiB,
  /** Objects in a certificate PDF's cross-reference (genuine: about 40). */
  pdfObjects: 100_000,
  /** Revisions of a PDF, each an incremental update (genuine: 1). */
  pdfRevisions: 32,
  /** Files attached to a certificate PDF, as its reader lists them (genuine: 1). */
  pdfAttachments: 64,
  /** A line of a load file or a register, in bytes (genuine: under 4 KiB). */
  loadFileLineBytes: 1 * MiB,
  /** Fields in a line of a load file (genuine: 10–60). */
  loadFileFields: 1_000,
  /** One of a kit's seal files: its manifest (genuine: about 230 bytes a file of the kit), token or certificates. */
  kitSealPartBytes: 512 * MiB,
  /** Folders inside one another in a production or a kit (genuine: under 20). */
  pathDepth: 128,
} as const;

export type Bound = keyof typeof LIMITS;

/** A size as the bounds are written: KiB, MiB or GiB. */
export const byteSize = (bytes: number) =>
  bytes >= 1024 * MiB
    ? `${bytes / (1024 * MiB)} GiB`
    : bytes >= MiB
      ? `${bytes / MiB} MiB`
      : `${bytes / KiB} KiB`;
const number = (n: number) => n.toLocaleString('en');

/**
 * Each bound in a reader's words (English: the verifier's own sentences, and the app's catalogue).
 * Said as "refused: …", so each names what is too large and the most that is read.
 */
export const BOUND_WORDS: Record<Bound, string> = {
  receiptBytes: `a receipt is read only up to ${byteSize(LIMITS.receiptBytes)}; this one is larger`,
  jsonDepth: `a receipt may nest at most ${LIMITS.jsonDepth} lists and objects inside one another; this one nests more`,
  jsonValues: `a receipt may hold at most ${number(LIMITS.jsonValues)} values; this one holds more`,
  textChars: `a text field in a receipt may be at most ${number(LIMITS.textChars)} characters long; this one is longer`,
  base64Chars: `a timestamp token or signing certificate in a receipt may be at most ${number(LIMITS.base64Chars)} characters long; this one is longer`,
  chainCertificates: `a timestamp's certificate chain may hold at most ${LIMITS.chainCertificates} certificates; this one holds more`,
  howToLines: `a receipt's how-to-verify text may be at most ${LIMITS.howToLines} lines long; this one is longer`,
  zipEntries: `a kit's zip may hold at most ${number(LIMITS.zipEntries)} files; this one holds more`,
  zipExpandedBytes: `the receipts in a kit's zip may expand to at most ${byteSize(LIMITS.zipExpandedBytes)} together; these expand to more`,
  zipEntryRatio: `a kit's zip may expand at most ${LIMITS.zipEntryRatio} times its compressed size, file by file and in all; this one expands more (a zip bomb)`,
  pdfBytes: `a certificate PDF is read only up to ${byteSize(LIMITS.pdfBytes)}; this one is larger`,
  pdfObjects: `a certificate PDF may hold at most ${number(LIMITS.pdfObjects)} objects; this one holds more`,
  pdfRevisions: `a certificate PDF may have at most ${LIMITS.pdfRevisions} revisions; this one has more`,
  pdfAttachments: `a certificate PDF may carry at most ${LIMITS.pdfAttachments} attached files; this one carries more`,
  loadFileLineBytes: `a line of a load file or register is read only up to ${byteSize(LIMITS.loadFileLineBytes)}; this one is longer`,
  loadFileFields: `a line of a load file may have at most ${number(LIMITS.loadFileFields)} fields; this one has more`,
  kitSealPartBytes: `a kit's seal file (its manifest, token or certificates) is read only up to ${byteSize(LIMITS.kitSealPartBytes)}; this one is larger`,
  pathDepth: `folders are opened at most ${LIMITS.pathDepth} levels deep; this one lies deeper`,
};

/** Input past one of the bounds: refused in words that name it, never read on. */
export class LimitExceeded extends Error {
  constructor(readonly bound: Bound) {
    super(`Refused: ${BOUND_WORDS[bound]}.`);
  }
}
