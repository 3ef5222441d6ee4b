import { statSync } from 'node:fs';
import { headOf } from './csv-records';
import { extname } from 'node:path';
import type { AnchoredFacts } from '../store';
import { EntriesBuilder } from '../store';
import type { Trust } from '../../verifier/verify-receipt';
import type { CertificationLookup } from './read-register';
import { readRegister } from './read-register';
import { readKit } from './read-kit';
import type { LoadFileOptions } from './read-load-file';
import { UnreadableReference, readLoadFile } from './read-load-file';
import type { Reference, ReferenceCertification } from '../../verifier/sets/reference';
import { normalName, unsigned } from '../../verifier/sets/reference';
import { said } from '../../protocol/said';
import { readerTurns } from '../tools/event-loop-turns';

/** What a set is checked against: a kit (folder or zip), our register (CSV), a load file (DAT). */
export interface ReferenceChoice extends LoadFileOptions {
  path: string;
  /** Log keys and timestamping roots a kit's receipts may rest on besides this computer's (`--log-key`, `--tsa-root`). */
  alsoTrusted?: Trust;
  /** The person checking compared the kit's fingerprints and trusts its keys and roots (`--trust-kit`). */
  trustKit?: boolean;
}

/** This computer's certifications, for lookups and as the reference when none is given. */
export interface LocalCertifications {
  /** The anchored ones after an id, oldest first, at most `limit`. */
  anchored(page: { afterId: number; limit: number }): AnchoredFacts[];
  /** The anchored ones of these contents (at most 500 at a time). */
  anchoredOf(sha256s: readonly string[]): AnchoredFacts[];
  /** How many are anchored. */
  anchoredCount(): number;
  /** They were made on a sandbox (the profile is the embedded one): DEMO. */
  demo: boolean;
}

/** No certifications at all: a data folder never used, which a check leaves as it found it. */
export const NO_LOCAL_CERTIFICATIONS: LocalCertifications = {
  anchored: () => [],
  anchoredOf: () => [],
  anchoredCount: () => 0,
  demo: false,
};

// A page is a few milliseconds of the main thread; 100,000 rows in one query held it for a quarter
// of a second, with no progress and the window not answering.
const ANCHORED_PAGE = 2000;

/** Every anchored certification of this computer, a page at a time with turns of the event loop. */
async function* allAnchored(local: LocalCertifications): AsyncGenerator<AnchoredFacts[]> {
  const takeTurn = readerTurns();
  for (let afterId = 0; ;) {
    const page = local.anchored({ afterId, limit: ANCHORED_PAGE });
    yield page;
    if (page.length < ANCHORED_PAGE) return;
    afterId = (page.at(-1) as AnchoredFacts).id;
    await takeTurn();
  }
}

// Contents asked for at once: the most one query of the store takes.
const CONTENTS_PER_QUERY = 500;

/** The anchored certifications of these contents, asked for 500 at a time with turns of the event loop. */
async function anchoredOf(local: LocalCertifications, sha256s: readonly string[]): Promise<AnchoredFacts[]> {
  const takeTurn = readerTurns();
  const rows: AnchoredFacts[] = [];
  const unique = [...new Set(sha256s)];
  for (let start = 0; start < unique.length; start += CONTENTS_PER_QUERY) {
    rows.push(...local.anchoredOf(unique.slice(start, start + CONTENTS_PER_QUERY)));
    await takeTurn();
  }
  return rows;
}

/**
 * The certification this computer holds of each of these contents (that id, when one is named),
 * with the times its log signed. A register of 20 lines on a computer that anchored 100,000 asks
 * for its 20 contents; one about as large as what is anchored here reads that in order, which
 * costs about half as much per row as finding each content by its index (measured: 1.6 against
 * 2.8 µs).
 */
export async function lookupIn(
  local: LocalCertifications,
  sha256s: readonly string[],
): Promise<CertificationLookup> {
  if (local.anchoredCount() > 2 * sha256s.length)
    return lookupOf(await anchoredOf(local, sha256s), local.demo);
  const rows: AnchoredFacts[] = [];
  for await (const page of allAnchored(local)) rows.push(...page);
  return lookupOf(rows, local.demo);
}

/** Lookups (see lookupIn) among these anchored certifications. */
function lookupOf(anchored: readonly AnchoredFacts[], demo: boolean): CertificationLookup {
  const byHash = new Map<string, AnchoredFacts[]>();
  for (const row of anchored) {
    const same = byHash.get(row.assetHash);
    if (same) same.push(row);
    else byHash.set(row.assetHash, [row]);
  }
  return (sha256, id) => {
    const rows = byHash.get(sha256) ?? [];
    const row =
      (id ? rows.find((candidate) => candidate.serviceId === id) : undefined) ?? (id ? undefined : rows[0]);
    return row ? signedTimesOf(row, demo) : null;
  };
}

/** A certification of this computer: the times its log signed stand only while its evidence holds. */
const signedTimesOf = (row: AnchoredFacts, demo: boolean): ReferenceCertification => ({
  id: row.serviceId,
  signedAt: row.verified ? row.loggedCertifiedAt : null,
  anchoredAt: row.verified ? row.loggedTreeHeadAt : null,
  ...(demo ? { demo } : {}),
});

/** Which kind of reference a path is: a folder or zip is a kit, a CSV our register, else a load file. */
export function kindOfReference(path: string): 'kit' | 'register' | 'load-file' {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    throw new UnreadableReference(path, said('sets.why.doesNotExist'));
  }
  const extension = extname(path).toLowerCase();
  if (isFolder || extension === '.zip') return 'kit';
  return extension === '.csv' || startsLikeRegister(path) ? 'register' : 'load-file';
}

/** The reference chosen, read as the kind it is. */
export async function openReference(
  choice: ReferenceChoice,
  kind: ReturnType<typeof kindOfReference>,
  trust: Trust,
  local: LocalCertifications,
  newEntries: () => EntriesBuilder = () => new EntriesBuilder(),
): Promise<Reference> {
  if (kind === 'kit') return readKit(choice.path, trust, newEntries(), { trustKit: choice.trustKit });
  if (kind === 'register')
    return readRegister(choice.path, (sha256s) => lookupIn(local, sha256s), newEntries);
  return readLoadFile(choice.path, choice, newEntries());
}

/** Our register whatever its file's name: it starts with our header (after a byte-order mark). */
function startsLikeRegister(path: string): boolean {
  let head: Buffer;
  try {
    head = headOf(path, 64);
  } catch {
    // Not readable: the load file reader says so, with where and why.
    return false;
  }
  return /^Matter[,;\t]File[,;\t]Path/.test(head.toString('utf8').replace(/^\ufeff/, ''));
}

/** This computer's register as the reference: every anchored certification of the active profile. */
export async function thisComputer(
  local: LocalCertifications,
  entries: EntriesBuilder = new EntriesBuilder(),
): Promise<Reference> {
  for await (const page of allAnchored(local))
    for (const row of page)
      entries.add({
        name: normalName(row.fileName),
        writtenAs: row.fileName,
        digests: { sha256: row.assetHash },
        certification: signedTimesOf(row, local.demo),
        where: `certification ${row.id}`,
      });
  return {
    kind: 'this-computer',
    source: null,
    entries: await entries.seal({ fromWindows: false }, readerTurns()),
    problems: [],
    digests: [],
    ...unsigned(local.demo && local.anchoredCount() > 0),
  };
}
