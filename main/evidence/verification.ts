import { stateSaid } from '../../protocol/states';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DocumentVerification, EvidenceCheck, FileVerification } from '../../protocol/views';
import type { Trust } from '../../verifier/verify-receipt';
import { HashPool } from '../hashing/hash-pool';
import { hashOneFile } from '../hashing/hash-one-file';
import type { EntriesBuilder, Store } from '../store';
import { openStore } from '../store';
import { checkEvidence } from './evidence-checker';
import { LogTrust } from './log-trust';
import type { ProofVerification } from './verify-document';

export type { ProofVerification, Trust };
import { checkAgainstProof } from './verify-document';
import { fingerprintOfKey } from './log-keys';
import { said } from '../../protocol/said';
import { certificateFingerprint, certificatesFromPem } from '../../verifier/timestamp/token';
import type { SetProgress, SetReport } from '../../protocol/sets';
import { DeskError } from '../errors';
import type { LocalCertifications, ReferenceChoice } from '../sets/open-reference';

export { setReportJson } from '../sets/set-report';

export interface VerificationDeps {
  store: Store;
  pool: HashPool;
  logKeys: LogTrust;
  activeProfileId(): string;
  /** The profile's certifications are a sandbox's: DEMO. */
  isDemo(profileId: string): boolean;
}

/**
 * Checking a document, offline: against its receipt or certificate (the keys and roots trusted
 * here decide), or against this computer's certifications of it.
 */
export class Verification {
  constructor(private readonly deps: VerificationDeps) {}

  /**
   * The log keys and timestamping roots a data folder trusts. Reads the queue only if there is one:
   * verifying a receipt needs no queue at all, and writes none.
   */
  static trustedHere(dataDir: string): Trust {
    const path = join(dataDir, 'queue.sqlite');
    if (!existsSync(path)) return { logKeys: [], tsaRoots: [] };
    const store = openStore(path);
    try {
      return trustIn(store);
    } finally {
      store.close();
    }
  }

  /**
   * A document against its proof with no core at all (the command line's `verify --receipt`): the
   * keys and roots this data folder trusts, plus those given, one hashing worker, nothing written.
   */
  static async checkProofAlone(
    path: string,
    proofPath: string,
    dataDir: string,
    given: Trust,
  ): Promise<{ assetHash: string; proof: ProofVerification }> {
    const trust = bothTrusted(given, Verification.trustedHere(dataDir));
    const pool = new HashPool(1);
    try {
      const { hash } = await hashOneFile(pool, path);
      return { assetHash: hash, proof: await checkAgainstProof(hash, proofPath, trust) };
    } finally {
      await pool.close();
    }
  }

  /** A trusted log key given as its fingerprint or a PEM public key's text, as its fingerprint; null if neither. */
  static logKeyFingerprintOf = fingerprintOfKey;

  /** The fingerprint of the first certificate in a PEM text (a trusted timestamping root); null if none. */
  static rootFingerprintOf(pem: string): string | null {
    const [first] = certificatesFromPem(pem);
    return first ? certificateFingerprint(first) : null;
  }

  /**
   * A whole set (files and folders) against a reference (a kit, our register, a load file), or
   * against this computer's certifications when none is given. A reference that cannot be read is
   * refused with where and why (`invalid_reference`).
   */
  async verifySet(
    paths: readonly string[],
    against: ReferenceChoice | null,
    onProgress?: (progress: SetProgress) => void,
    /** How much (entries, lines, files waiting) is kept in memory before it is kept on disk (for tests). */
    keptInMemory?: number,
  ): Promise<SetReport> {
    const { store } = this.deps;
    const profileId = this.deps.activeProfileId();
    const local: LocalCertifications = {
      anchored: (page) => store.queue.anchoredSignedFacts(profileId, page),
      anchoredOf: (sha256s) => store.queue.anchoredSignedFactsOf(profileId, sha256s),
      anchoredCount: () => store.queue.counts(profileId).anchored,
      demo: this.deps.isDemo(profileId),
    };
    const trust = bothTrusted(trustIn(store), against?.alsoTrusted);
    return checkSet(paths, against, { pool: this.deps.pool, trust, local }, onProgress, keptInMemory);
  }

  /**
   * A set against a reference on a data folder never used (the other side's computer): nothing is
   * trusted but what is given, nothing is written, and the folder is left as it was found.
   */
  static async checkSetAlone(
    paths: readonly string[],
    against: ReferenceChoice | null,
    onProgress?: (progress: SetProgress) => void,
  ): Promise<SetReport> {
    const { NO_LOCAL_CERTIFICATIONS } = await import('../sets/open-reference');
    const pool = new HashPool();
    try {
      const trust = bothTrusted({ logKeys: [], tsaRoots: [] }, against?.alsoTrusted);
      return await checkSet(paths, against, { pool, trust, local: NO_LOCAL_CERTIFICATIONS }, onProgress);
    } finally {
      await pool.close();
    }
  }

  /** Against the proof when one is given, else against this queue's certifications of the document. */
  async verifyDocument(path: string, proofPath?: string): Promise<DocumentVerification> {
    if (proofPath === undefined) return { kind: 'register', ...(await this.verifyFile(path)) };
    const hashed = await hashOneFile(this.deps.pool, path);
    const result = await checkAgainstProof(hashed.hash, proofPath, trustIn(this.deps.store));
    return { kind: 'proof', path, assetHash: hashed.hash, ...result };
  }

  /** Hashes a file and re-checks, offline, the evidence of every certification of it. */
  async verifyFile(path: string): Promise<FileVerification> {
    const { store, pool, logKeys } = this.deps;
    const profileId = this.deps.activeProfileId();
    const hashed = await hashOneFile(pool, path);
    const certifications = [];
    for (const row of store.queue.findByHash(profileId, hashed.hash)) {
      const check: EvidenceCheck =
        row.state === 'anchored'
          ? await checkEvidence(row, row.evidence, logKeys)
          : {
              verification: 'unverifiable',
              message: said('evidence.notAnchoredYet', { state: stateSaid(row.state) }),
            };
      certifications.push({ row, check });
    }
    const sameName = certifications.length
      ? []
      : store.queue.findSameNameOtherContent(profileId, basename(path), hashed.hash).map((row) => ({
          id: row.id,
          fileName: row.fileName,
          createdAt: row.createdAt,
          assetHash: row.assetHash,
        }));
    return { path, assetHash: hashed.hash, certifications, sameName };
  }
}

/** What either trusts: the keys and roots given for one check, and those trusted here. */
function bothTrusted(one: Trust, other: Trust | undefined): Trust {
  return {
    logKeys: [...one.logKeys, ...(other?.logKeys ?? [])],
    tsaRoots: [...one.tsaRoots, ...(other?.tsaRoots ?? [])],
  };
}

/** The log keys and timestamp roots a queue trusts: pinned keys, and the roots its kept tokens chain to. */
function trustIn(store: Store): Trust {
  return { logKeys: LogTrust.trustedFingerprints(store.settings), tsaRoots: store.timestamps.trustedRoots() };
}

/** A set against its reference (see Verification.verifySet), with what is trusted and held here. */
async function checkSet(
  paths: readonly string[],
  against: ReferenceChoice | null,
  here: { pool: HashPool; trust: Trust; local: LocalCertifications },
  onProgress?: (progress: SetProgress) => void,
  keptInMemory?: number,
): Promise<SetReport> {
  // Reading kits, registers and load files is loaded when a set is verified, not at every start.
  const [{ kindOfReference, openReference, thisComputer }, { UnreadableReference }, { verifySet }] =
    await Promise.all([
      import('../sets/open-reference'),
      import('../sets/read-load-file'),
      import('../sets/verify-set'),
    ]);
  const refusal = (error: unknown) =>
    error instanceof UnreadableReference
      ? new DeskError(
          'invalid_reference',
          said('sets.unreadableReference', { where: error.where, why: error.why }),
        )
      : error;
  let kind: ReturnType<typeof kindOfReference> | null;
  try {
    kind = against ? kindOfReference(against.path) : null;
  } catch (error) {
    throw refusal(error);
  }
  const read = async (newEntries: () => EntriesBuilder) => {
    try {
      return against && kind
        ? await openReference(against, kind, here.trust, here.local, newEntries)
        : await thisComputer(here.local, newEntries());
    } catch (error) {
      throw refusal(error);
    }
  };
  // Only a load file says which digests it carries; every other reference is SHA-256 alone, and
  // the set's files are hashed while it is read.
  const digests = kind === 'load-file' ? null : [];
  return verifySet(
    paths,
    { ownFiles: against ? [against.path] : [], digests, read },
    here.pool,
    onProgress,
    keptInMemory,
  );
}
