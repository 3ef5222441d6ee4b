import { statSync } from 'node:fs';
import { headOf } from './csv-records';
import { extname } from 'node:path';
import type { AnchoredFacts } from '../store';
import type { Trust } from '../../verifier/verify-receipt';
import type { CertificationLookup } from './read-register';
import { readRegister } from './read-register';
import { readKit } from './read-kit';
import type { LoadFileOptions } from './read-load-file';
import { UnreadableReference, readLoadFile } from './read-load-file';
import type { Reference, ReferenceCertification } from '../../verifier/sets/reference';
import { normalName } from '../../verifier/sets/reference';
import { said } from '../../protocol/said';

/** What a set is checked against: a kit (folder or zip), our register (CSV), a load file (DAT). */
export interface ReferenceChoice extends LoadFileOptions {
  path: string;
}

/** This computer's certifications, for lookups and as the reference when none is given. */
export interface LocalCertifications {
  anchored(): AnchoredFacts[];
}

/** The certification this computer holds of this content (that id, when one is named), with the times its log signed. */
export function lookupIn(local: LocalCertifications): CertificationLookup {
  // Read once, on the first lookup: a register of 10,000 lines is not 10,000 queries.
  let byHash: Map<string, AnchoredFacts[]> | undefined;
  return (sha256, id) => {
    if (!byHash) {
      byHash = new Map();
      for (const row of local.anchored()) {
        const same = byHash.get(row.assetHash);
        if (same) same.push(row);
        else byHash.set(row.assetHash, [row]);
      }
    }
    const rows = byHash.get(sha256) ?? [];
    const row =
      (id ? rows.find((candidate) => candidate.serviceId === id) : undefined) ?? (id ? undefined : rows[0]);
    if (!row) return null;
    // The times its log signed stand only while its evidence holds; otherwise nobody vouches for any.
    return {
      id: row.serviceId,
      signedAt: row.verified ? row.loggedCertifiedAt : null,
      anchoredAt: row.verified ? row.loggedTreeHeadAt : null,
    } satisfies ReferenceCertification;
  };
}

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
): Promise<Reference> {
  if (kind === 'kit') return readKit(choice.path, trust);
  if (kind === 'register') return readRegister(choice.path, lookupIn(local));
  return readLoadFile(choice.path, choice);
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
export function thisComputer(local: LocalCertifications): Reference {
  const rows = local.anchored();
  const lookup = lookupIn({ anchored: () => rows });
  return {
    kind: 'this-computer',
    source: null,
    entries: rows.map((row) => ({
      name: normalName(row.fileName),
      writtenAs: row.fileName,
      digests: { sha256: row.assetHash },
      certification: lookup(row.assetHash, row.serviceId),
      where: `certification ${row.id}`,
    })),
    fromWindows: false,
    problems: [],
    digests: [],
  };
}
