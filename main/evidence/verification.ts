import { stateSaid } from '../../protocol/states';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DocumentVerification, EvidenceCheck, FileVerification } from '../../protocol/views';
import type { Trust } from '../../verifier/verify-receipt';
import { HashPool } from '../hashing/hash-pool';
import { hashOneFile } from '../hashing/hash-one-file';
import type { ContentReads, Store } from '../store';
import { openStore } from '../store';
import { checkEvidence } from './evidence-checker';
import { LogTrust } from './log-trust';
import type { ProofVerification } from './verify-document';

export type { ProofVerification, Trust };
import { fingerprintOfKey } from './log-keys';
import { said } from '../../protocol/said';
import { certificateFingerprint, certificatesFromPem } from '../../verifier/timestamp/certificate-bytes';

export interface VerificationDeps {
  byContent: Pick<ContentReads, 'findByHash' | 'findSameNameOtherContent'>;
  /** The log keys and timestamping roots trusted here. */
  trust(): Trust;
  pool: HashPool;
  logKeys: LogTrust;
  activeProfileId(): string;
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
      const { checkAgainstProof } = await import('./verify-document');
      return { assetHash: hash, proof: await checkAgainstProof(hash, proofPath, trust, path) };
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

  /** Against the proof when one is given, else against this queue's certifications of the document. */
  async verifyDocument(path: string, proofPath?: string): Promise<DocumentVerification> {
    if (proofPath === undefined) return { kind: 'register', ...(await this.verifyFile(path)) };
    const hashed = await hashOneFile(this.deps.pool, path);
    // The proof's checks (pkijs for its timestamp) load when a proof is checked, not when a command starts.
    const { checkAgainstProof } = await import('./verify-document');
    const result = await checkAgainstProof(hashed.hash, proofPath, this.deps.trust(), path);
    return { kind: 'proof', path, assetHash: hashed.hash, ...result };
  }

  /** Hashes a file and re-checks, offline, the evidence of every certification of it. */
  async verifyFile(path: string): Promise<FileVerification> {
    const { byContent, pool, logKeys } = this.deps;
    const profileId = this.deps.activeProfileId();
    const hashed = await hashOneFile(pool, path);
    const certifications = [];
    for (const row of byContent.findByHash(profileId, hashed.hash)) {
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
      : byContent.findSameNameOtherContent(profileId, basename(path), hashed.hash).map((row) => ({
          id: row.id,
          fileName: row.fileName,
          createdAt: row.createdAt,
          assetHash: row.assetHash,
        }));
    return { path, assetHash: hashed.hash, certifications, sameName };
  }
}

/** What either trusts: the keys and roots given for one check, and those trusted here. */
export function bothTrusted(one: Trust, other: Trust | undefined): Trust {
  return {
    logKeys: [...one.logKeys, ...(other?.logKeys ?? [])],
    tsaRoots: [...one.tsaRoots, ...(other?.tsaRoots ?? [])],
  };
}

/** The log keys and timestamp roots a queue trusts: pinned keys, and the roots its kept tokens chain to. */
export function trustIn(store: Pick<Store, 'settings' | 'timestamps'>): Trust {
  return { logKeys: LogTrust.trustedFingerprints(store.settings), tsaRoots: store.timestamps.trustedRoots() };
}
