import { extname } from 'node:path';
import type { SetProgress, SetReport } from '../../protocol/sets';
import { said } from '../../protocol/said';
import type { Trust } from '../../verifier/verify-receipt';
import { DeskError } from '../errors';
import { bothTrusted } from '../evidence/verification';
import { HashPool } from '../hashing/hash-pool';
import type { ContentReads, EntriesBuilder, QueueReads } from '../store';
import type { DocumentTimestamper } from '../tools/pdf/seal';
import type { LocalCertifications, ReferenceChoice } from './open-reference';

/** What a set is checked against: the service's own argument. */
export type { ReferenceChoice };

export interface SetVerificationDeps {
  reads: Pick<QueueReads, 'counts'>;
  byContent: Pick<ContentReads, 'anchoredSignedFacts' | 'anchoredSignedFactsOf'>;
  /** The log keys and timestamping roots trusted here. */
  trust(): Trust;
  pool: HashPool;
  activeProfileId(): string;
  /** The profile's certifications are a sandbox's: DEMO. */
  isDemo(profileId: string): boolean;
  /** The active profile's timestamping authority, to seal a report PDF with; none, unsealed. */
  documentTimestamper(): Promise<DocumentTimestamper | undefined>;
}

/**
 * Checking a whole production (files and folders) against a reference (a kit, our register, a
 * load file) or this computer's certifications, and saving the report.
 */
export class SetVerification {
  constructor(private readonly deps: SetVerificationDeps) {}

  /**
   * A whole set against a reference, or against this computer's certifications when none is given.
   * A reference that cannot be read is refused with where and why (`invalid_reference`).
   */
  async verifySet(
    paths: readonly string[],
    against: ReferenceChoice | null,
    onProgress?: (progress: SetProgress) => void,
    /** How much (entries, lines, files waiting) is kept in memory before it is kept on disk (for tests). */
    keptInMemory?: number,
  ): Promise<SetReport> {
    const { reads, byContent } = this.deps;
    const profileId = this.deps.activeProfileId();
    const local: LocalCertifications = {
      anchored: (page) => byContent.anchoredSignedFacts(profileId, page),
      anchoredOf: (sha256s) => byContent.anchoredSignedFactsOf(profileId, sha256s),
      anchoredCount: () => reads.counts(profileId).anchored,
      demo: this.deps.isDemo(profileId),
    };
    const trust = bothTrusted(this.deps.trust(), against?.alsoTrusted);
    return checkSet(paths, against, { pool: this.deps.pool, trust, local }, onProgress, keptInMemory);
  }

  /**
   * Saves a set's report: CSV for Excel, or a PDF in the register's style, sealed like the
   * certificates when the profile names a timestamping authority.
   */
  async saveReport(report: SetReport, path: string): Promise<void> {
    const { saveSetReport } = await import('./save-set-report');
    const pdf = extname(path).toLowerCase() === '.pdf';
    await saveSetReport(report, path, pdf ? await this.deps.documentTimestamper() : undefined);
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
    const { NO_LOCAL_CERTIFICATIONS } = await import('./open-reference');
    const pool = new HashPool();
    try {
      const trust = bothTrusted({ logKeys: [], tsaRoots: [] }, against?.alsoTrusted);
      return await checkSet(paths, against, { pool, trust, local: NO_LOCAL_CERTIFICATIONS }, onProgress);
    } finally {
      await pool.close();
    }
  }

  /** Its report saved with no core (no profile, so a PDF is not sealed). */
  static async saveReportAlone(report: SetReport, path: string): Promise<void> {
    await (await import('./save-set-report')).saveSetReport(report, path);
  }
}

/** A set against its reference (see SetVerification.verifySet), with what is trusted and held here. */
async function checkSet(
  paths: readonly string[],
  against: ReferenceChoice | null,
  here: { pool: HashPool; trust: Trust; local: LocalCertifications },
  onProgress?: (progress: SetProgress) => void,
  keptInMemory?: number,
): Promise<SetReport> {
  // Reading kits, registers and load files is loaded when a set is verified, not at every start.
  const [{ kindOfReference, openReference, thisComputer }, { UnreadableReference }, { verifySet }] =
    await Promise.all([import('./open-reference'), import('./read-load-file'), import('./verify-set')]);
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
