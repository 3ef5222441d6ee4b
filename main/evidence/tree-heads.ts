import { hexToBytes } from '../../verifier/bytes';
import { consistencyHolds } from '../../verifier/consistency';
import type { Said } from '../../protocol/said';
import { readStoredSaid, said, storedSaid } from '../../protocol/said';
import type { Logger } from '../logging/logger';
import type { SettingsStore } from '../store';
import { SETTING } from '../store/setting-keys';
import type { ServiceAnswer } from '../service/service-client';

export interface TreeHead {
  tree_size: number;
  root_hash: string;
}

/** Where a log's consistency proofs are read (the service client, while connected). */
export interface ConsistencyReader {
  fetchConsistency(first: number, second: number): Promise<ServiceAnswer<string[]>>;
}

const { treeHead: headOf, logRewritten: brokenOf } = SETTING;

/**
 * Whether a log stays append-only: the newest signed tree head seen per log key, kept in the
 * settings, and every newer one checked against it with the log's consistency proof. A log caught
 * rewriting its history is marked broken for good.
 */
export class TreeHeads {
  private checks: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly settings: SettingsStore,
    private readonly log: Logger,
    private readonly reader: () => ConsistencyReader | null,
  ) {}

  /** One tree head against the newest seen for its key (see LogTrust.checkTreeHead). */
  check(fingerprint: string, head: TreeHead): Promise<{ ok: true } | { ok: false; message: Said }> {
    // One at a time: the rows of a batch share a tree head, and only the first needs to ask for a proof.
    const run = this.checks.then(() => this.checkNow(fingerprint, head));
    this.checks = run.catch(() => undefined);
    return run;
  }

  private async checkNow(
    fingerprint: string,
    head: TreeHead,
  ): Promise<{ ok: true } | { ok: false; message: Said }> {
    const { settings } = this;
    const broken = settings.get(brokenOf(fingerprint));
    if (broken) return { ok: false, message: readStoredSaid(broken) as Said };
    const seenJson = settings.get(headOf(fingerprint));
    const seen = seenJson ? (JSON.parse(seenJson) as TreeHead) : undefined;
    if (!seen) {
      settings.set(headOf(fingerprint), JSON.stringify(head));
      return { ok: true };
    }
    if (seen.tree_size === head.tree_size) {
      if (seen.root_hash === head.root_hash) return { ok: true };
      return this.rewritten(fingerprint, seen, head);
    }
    const [older, newer] = seen.tree_size < head.tree_size ? [seen, head] : [head, seen];
    const proof = await this.reader()?.fetchConsistency(older.tree_size, newer.tree_size);
    if (!proof?.ok) {
      // A service without consistency proofs (the real one may have none): the newest head is still kept.
      this.log.log('warn', 'evidence.consistency_unchecked', {
        reason: proof?.ok === false ? proof.code : 'no service',
      });
      if (newer === head) settings.set(headOf(fingerprint), JSON.stringify(head));
      return { ok: true };
    }
    const nodes = proof.value.map((node) => hexToBytes(node));
    if (
      !consistencyHolds(
        older.tree_size,
        newer.tree_size,
        hexToBytes(older.root_hash),
        hexToBytes(newer.root_hash),
        nodes,
      )
    )
      return this.rewritten(fingerprint, older, newer);
    if (newer === head) settings.set(headOf(fingerprint), JSON.stringify(head));
    return { ok: true };
  }

  private rewritten(fingerprint: string, older: TreeHead, newer: TreeHead): { ok: false; message: Said } {
    const message = said('evidence.logRewritten', { newer: newer.tree_size, older: older.tree_size });
    this.settings.set(brokenOf(fingerprint), storedSaid(message) as string);
    this.log.log('error', 'evidence.log_rewritten', {
      fingerprint,
      older: older.tree_size,
      newer: newer.tree_size,
    });
    return { ok: false, message };
  }
}
