import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Receipt } from '../../protocol/receipt';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import { computerTimeZone } from '../../protocol/time-format';
import type { CertificationRow } from '../../protocol/views';
import type { ProfileConnections } from '../config/profile-connections';
import { DeskError, exportFailed } from '../errors';
import type { Logger } from '../logging/logger';
import type { KitSeals, QueueReads } from '../store';
import type { DocumentTimestamper, SealRefused } from '../tools/pdf/seal';
import { UNSEALED_BY_CHOICE } from '../tools/pdf/seal';
import { safeFileName } from './kit-folder';

export interface CertificateSavingDeps {
  reads: QueueReads;
  profiles: ProfileConnections;
  log: Logger;
  activeProfileId(): string;
  /** Certificates saved while their authority could not seal them, until their seal is added. */
  kitSeals?: KitSeals;
  /** How soon a waiting seal is asked for again. */
  sealRetryMs?: number;
  /** A seal now waits: whoever asks authorities looks. */
  sealWaits?(): void;
  receiptFor(row: CertificationRow): Receipt;
  /** Seals by the active profile's authority; none when it names none. */
  documentTimestamper(): Promise<DocumentTimestamper | undefined>;
}

/**
 * A certificate on its own (not in a kit): saved where the person chose, sealed like a kit's, its
 * seal waiting where it may; and written again once a seal that waited comes.
 */
export class CertificateSaving {
  constructor(private readonly deps: CertificateSavingDeps) {}

  /**
   * One anchored certification's certificate, on its own, where the person chose: the PDF a lawyer
   * attaches to an email, with the receipt inside it (enough to verify), sealed like a kit's. It is
   * written beside the chosen name first, so a failure never leaves half a PDF under that name.
   */
  async save(
    id: number,
    path: string,
    { unsealed = false, mayWait = false }: { unsealed?: boolean; mayWait?: boolean } = {},
  ): Promise<{ file: string; sealWaiting?: Said }> {
    const row = this.deps.reads.get(id);
    if (!row) throw new DeskError('not_found', said('queue.noCertification', { id }));
    if (row.state !== 'anchored')
      throw new DeskError('invalid_input', said('exports.certificateNotAnchored', { name: row.fileName }));
    // Never unsealed without asking: a refusal fails the save, saying why, or the seal waits where it
    // may (the person's own save, not a drag); unsealed is a choice.
    const profileId = this.deps.activeProfileId();
    const authority = unsealed ? null : await this.deps.profiles.authorityFor(profileId).catch(() => null);
    const timestamper = unsealed ? UNSEALED_BY_CHOICE : await this.deps.documentTimestamper();
    const refused = await this.write(row, path, timestamper);
    if (refused && mayWait && !refused.final && authority && this.deps.kitSeals) {
      const next = Date.now() + (this.deps.sealRetryMs ?? 10_000);
      this.deps.kitSeals.add(
        {
          profileId,
          tsaUrl: authority.url,
          certificationId: id,
          file: path,
          problem: refused.reason ?? null,
        },
        next,
      );
      this.deps.log.log('warn', 'certificate.seal_waiting', { certification: id, problem: refused.problem });
      this.deps.sealWaits?.();
      const why = refused.reason ?? refused.problem;
      return {
        file: path,
        sealWaiting: said('exports.sealWaiting.certificate', { name: row.fileName, why, next }),
      };
    }
    // Saved unsealed, by choice, where its seal waited: the sealed one is not written over it later.
    if (unsealed) this.deps.kitSeals?.dropCertificate(id, path);
    if (refused)
      throw exportFailed(
        said('exports.certificate'),
        path,
        new DeskError(
          'not_sealed',
          said('exports.certificateNotSealed', { name: row.fileName, why: refused.problem }),
        ),
      );
    this.deps.log.log('info', 'certificate.saved', { certification: id });
    return { file: path };
  }

  /**
   * A certificate whose seal waited, once its authority is asked again: written where the person
   * chose when sealed; given up when its certification is no longer here.
   */
  async completeSeal(
    seal: { certificationId: number; file: string },
    timestamper: DocumentTimestamper,
  ): Promise<{ sealed: true } | { sealed: false; problem: Said; final: boolean }> {
    const row = this.deps.reads.get(seal.certificationId);
    if (!row || row.state !== 'anchored')
      return { sealed: false, problem: said('exports.sealWaiting.certificateGone'), final: true };
    if (!existsSync(dirname(seal.file)))
      return {
        sealed: false,
        problem: said('exports.sealWaiting.folderGone', { where: dirname(seal.file) }),
        final: true,
      };
    const refused = await this.write(row, seal.file, timestamper);
    if (!refused) this.deps.log.log('info', 'certificate.saved', { certification: row.id });
    return refused
      ? {
          sealed: false,
          problem: refused.reason ?? said('exports.sealWaiting.refused', { why: refused.problem }),
          final: refused.final === true,
        }
      : { sealed: true };
  }

  /**
   * The certificate PDF with the receipt inside it, sealed by `timestamper`, written beside `path`
   * first, so a failure never leaves half a PDF under that name. A refused seal writes nothing.
   */
  private async write(
    row: CertificationRow,
    path: string,
    timestamper: DocumentTimestamper | typeof UNSEALED_BY_CHOICE | undefined,
  ): Promise<SealRefused | null> {
    const receipt = this.deps.receiptFor(row);
    const { certificatePdf } = await import('./pdf/certificate');
    const partial = `${path}.partial`;
    let refused: SealRefused | null = null;
    const noting: typeof timestamper =
      typeof timestamper === 'function'
        ? async (bytes) => {
            const answer = await timestamper(bytes);
            if ('problem' in answer) refused = answer;
            return answer;
          }
        : timestamper;
    try {
      const pdf = await certificatePdf(receipt, {
        receiptName: `${safeFileName(receipt.file.name)}.receipt.json`,
        generatedAt: new Date(),
        timeZone: computerTimeZone(),
        timestamper: noting,
      });
      if (refused) return refused;
      await writeFile(partial, pdf);
      await rename(partial, path);
      return null;
    } catch (error) {
      await rm(partial, { force: true });
      throw exportFailed(said('exports.certificate'), path, error);
    }
  }
}
