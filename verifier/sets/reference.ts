import type { Said } from '../../protocol/said';
import type { Fingerprints, KitSeal, ReferenceKind, SetCertification } from '../../protocol/sets';

/** The digests a reference may hold for a document: ours (SHA-256), or a load file's (MD5, SHA-1). */
export type Digest = 'sha256' | 'md5' | 'sha1';
export type ExtraDigest = Exclude<Digest, 'sha256'>;

export type ReferenceCertification = SetCertification;

/** One document the reference lists. */
export interface ReferenceEntry {
  /** Its name relative to the set's root: '/' between folders, Unicode NFC. */
  name: string;
  /** The name as the reference wrote it, for the report. */
  writtenAs: string;
  digests: Partial<Record<Digest, string>>;
  /** The certification of this content, when the reference (or this computer) has one. */
  certification: ReferenceCertification | null;
  /** Where in the reference it is written (a line, a receipt's file), for the report. */
  where: string;
}

/** Something in the reference that could not be used, said alone; the rest is still checked. */
export interface ReferenceProblem {
  where: string;
  why: Said;
}

export type { ReferenceKind };

/** An entry as kept: `at` is its place in the reference's order, and says which entry it is. */
export interface KeptEntry extends ReferenceEntry {
  at: number;
}

/** A reference's entries as the matcher asks for them: in memory, or (a large one) on disk. */
export interface ReferenceEntries {
  readonly size: number;
  /** File names only, no folders (a kit's receipts): documents are compared by their file names. */
  readonly fileNamesOnly: boolean;
  /**
   * The entries with a document's name (as `nameKey` compares names) and those with any of its
   * digests: the two things every verdict rests on. Where entries of its name have its content,
   * `sameContent` may hold only those: they decide the verdict.
   */
  candidates(
    name: string,
    digests: Partial<Record<Digest, string>>,
  ): { sameName: readonly KeptEntry[]; sameContent: readonly KeptEntry[] };
  /** Every entry whose place (`at`) `found` does not mark, in the reference's order. */
  unmatched(found: Uint8Array): Iterable<KeptEntry>;
  /** Frees what holds them (a large reference's scratch database). */
  close(): void;
}

export interface Reference {
  kind: ReferenceKind;
  /** The file or folder it was read from (none for this computer's register). */
  source: string | null;
  entries: ReferenceEntries;
  problems: ReferenceProblem[];
  /** Besides SHA-256, the digests its entries carry: each file is read once for all of them. */
  digests: ExtraDigest[];
  /** Some of its certifications were made on a sandbox (DEMO). */
  demo: boolean;
  /** The keys and roots some of its certifications rest on that are not trusted (a kit's). */
  untrusted: Fingerprints;
  /** The kit's keys and roots, trusted because the person checking chose to (see docs/evidence.md). */
  trustedFromKit: Fingerprints;
  /** A kit's seal, as checked; none for other references. */
  seal?: KitSeal;
}

/** No fingerprints: a reference nobody signed, or one whose keys were all trusted already. */
export const noFingerprints = (): Fingerprints => ({ logKeys: [], tsaRoots: [] });

/** What a reference says beyond its entries, for a reference with no signed certifications. */
export const unsigned = (demo = false) => ({
  demo,
  untrusted: noFingerprints(),
  trustedFromKit: noFingerprints(),
});

/** A name as compared: '/' for '\\', NFC (macOS writes NFD), no leading './'. */
// Printable ASCII with no backslash, './' or '//': already as compared (most names; no work).
const PLAIN = /^(?!\.\/)(?!.*\/\/)[\x20-\x5b\x5d-\x7e]*$/;

export const normalName = (name: string): string =>
  PLAIN.test(name)
    ? name
    : name
        .normalize('NFC')
        .replace(/\\/g, '/')
        .replace(/^(\.\/)+/, '')
        .replace(/\/{2,}/g, '/');

/** How names are compared: names differing only in case are the same where the reference was made on Windows. */
export interface NameRule {
  fileNamesOnly: boolean;
  fromWindows: boolean;
}

export const fileNameOf = (name: string): string => name.slice(name.lastIndexOf('/') + 1);

/** A name (normalName's) as compared under the rule: the file name alone, lower case from Windows. */
export function nameKey(name: string, rule: NameRule): string {
  const compared = rule.fileNamesOnly ? fileNameOf(name) : name;
  return rule.fromWindows ? compared.toLowerCase() : compared;
}

const DIGEST_OF_LENGTH: Partial<Record<number, Digest>> = { 32: 'md5', 40: 'sha1', 64: 'sha256' };

/** A digest as compared: lower-case hex, or null when it is not one of the lengths we know. */
export function digestOf(text: string): { digest: Digest; hex: string } | null {
  // Most are written as compared (our register, most load files): checked without a copy.
  const hex = isLowerHex(text) ? text : text.trim().toLowerCase();
  if (hex !== text && !isLowerHex(hex)) return null;
  const digest = DIGEST_OF_LENGTH[hex.length];
  return digest ? { digest, hex } : null;
}

function isLowerHex(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (!((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66))) return false;
  }
  return text.length > 0;
}

/** Paths written by Windows: a drive letter, a UNC share, or backslashes between folders. */
export const looksLikeWindows = (path: string): boolean => /^[a-zA-Z]:[\\/]|^\\\\|\\/.test(path);

/**
 * The deepest folder absolute paths share: the register keeps the paths where each file was
 * certified; the set given is that folder, wherever it is now. One path at a time, for a reader
 * that takes turns: `add` each path (it returns the path as compared); `length` is then how many
 * characters of each returned name are that folder (with its last '/'), to cut off for its name in
 * the set.
 */
export function commonRoot(): { add(path: string): string; length(): number } {
  let first: string | undefined;
  // The shared folder is a prefix of every name that ends in '/'; a single name keeps its own.
  let common = 0;
  let prefix = '';
  return {
    add(path) {
      const name = normalName(path);
      if (first === undefined) {
        first = name;
        common = first.lastIndexOf('/') + 1;
        prefix = first.slice(0, common);
      } else if (!name.startsWith(prefix)) {
        let differs = 0;
        while (differs < common && name[differs] === first[differs]) differs++;
        common = differs === 0 ? 0 : first.lastIndexOf('/', differs - 1) + 1;
        prefix = first.slice(0, common);
      }
      return name;
    },
    length: () => common,
  };
}
