import type { Logger } from '../logging/logger';
import type { Authority } from '../service/ask-authority';
import type { DueRecord, RecordRenewals, SettingsStore } from '../store';
import type { Weakness } from '../store/record-renewals';
import type { DocumentToRenew, HashTreeRenewals } from '../store/hash-tree-renewals';
import type { ReceiptRecords } from '../store/receipt-records';
import type { TreeHash } from '../../verifier/evidence-record/hash-tree';
import { SETTING } from '../store/setting-keys';
import { DEFAULT_RENEWAL_MARGIN_MS, dueRecordOf } from '../store/record-renewals';
import type { ItPolicy } from '../desktop-policy/it-policy';

import type { RecordsStatus } from '../../protocol/views';
import { byMatter } from '../../protocol/by-matter';
import { readStoredSaid } from '../../protocol/said';

const DAY_MS = 24 * 3_600_000;

/** What a timestamp may no longer rest on, unless IT's policy (RetiredAlgorithms) says otherwise. */
export const DEFAULT_RETIRED = ['md5', 'sha1', 'rsa<2048', 'ec<256'];

/** How early records are renewed, and how often the desk looks. */
export interface RenewalPolicy {
  /** Renew this long before the newest archive timestamp's certificates expire (default 90 days). */
  marginMs: number;
  /** How often the background looks for records due (default daily). */
  checkEveryMs: number;
  /** Whether the background looks at all (not while `renew` looks itself). */
  lookInBackground: boolean;
}

export const DEFAULT_RENEWAL_POLICY: RenewalPolicy = {
  marginMs: DEFAULT_RENEWAL_MARGIN_MS,
  checkEveryMs: DAY_MS,
  lookInBackground: true,
};

export interface RecordRenewalDeps {
  renewals: RecordRenewals;
  hashTrees: HashTreeRenewals;
  receiptRecords: ReceiptRecords;
  /** A certification's receipt, as its kit writes it (null when it cannot be made). */
  receiptTextOf(certificationId: number): string | null;
  settings: SettingsStore;
  authorityFor(profileId: string): Promise<Authority | null>;
  log: Logger;
  now: () => number;
  policy?: Partial<RenewalPolicy>;
  /** IT's policy: the margin and the retired algorithms, when it sets them. */
  itPolicy?: () => ItPolicy;
}

/** What a look for records due found: what it renews now, and what cannot be renewed here, and why. */
export interface RenewalLook {
  due: DueRecord[];
  /** The renewals opened: one request per profile's authority. */
  opened: number[];
  /** Records due whose profile names no timestamping authority now. */
  noAuthority: DueRecord[];
  /** Records whose last renewal rests on what is retired too: they need a stronger authority. */
  needsStrongerAuthority: DueRecord[];
  /**
   * Hash-tree renewal, once SHA-256 is retired: how many documents were found and are being
   * renewed to SHA-512, and those that could not be found (their records stay as they are).
   */
  hashTree: { renewing: number; missing: DocumentToRenew[] };
  /** Receipts of certifications made before records, timestamped now to start their records. */
  receiptRecords: number;
}

/** Where documents may be, beside where they were certified and the watched folders: folders a person gives. */
export interface LookOptions {
  documentFolders?: readonly string[];
}

/**
 * Renewal without anyone remembering it: the timestamp engine looks once a period (daily by default,
 * and at once when it starts) for evidence records whose newest archive timestamp nears its end, and
 * opens one renewal per authority for all of them. Asking, pace, retries and offline waits are the
 * engine's, as for any batch.
 */
export class RecordRenewal {
  private nextLookAt = 0;
  /** What each newest token rests on that is retired, by token and list (a token does not change). */
  private readonly weaknesses = new Map<string, Weakness | null>();
  private lastLook: RenewalLook | null = null;
  private looking: Promise<RenewalLook> | null = null;

  constructor(private readonly deps: RecordRenewalDeps) {}

  /** The margin in force: IT's or the person's setting in days, else the policy's. */
  marginMs(): number {
    const days = Number(
      this.deps.itPolicy?.().renewalMarginDays ?? this.deps.settings.get(SETTING.renewalMarginDays),
    );
    return Number.isFinite(days) && days > 0
      ? days * DAY_MS
      : (this.deps.policy?.marginMs ?? DEFAULT_RENEWAL_POLICY.marginMs);
  }

  /**
   * Records due now (for `renew --dry-run` and the status), soonest end first: their certificates
   * end within the margin, or their newest timestamp rests on what is retired (IT's list, else ours).
   */
  async due(): Promise<DueRecord[]> {
    const now = this.deps.now();
    const margin = this.marginMs();
    const retired = this.deps.itPolicy?.().retiredAlgorithms ?? DEFAULT_RETIRED;
    const due: DueRecord[] = [];
    for (const record of this.deps.renewals.candidates(now)) {
      if (record.holdsUntil - margin <= now) {
        due.push(dueRecordOf(record, 'expires'));
        continue;
      }
      // A record whose hash is retired is renewed to a stronger one (hash-tree renewal), not timestamped again.
      if (retired.includes(record.hash)) continue;
      const key = `${record.newestId}|${retired.join(',')}`;
      let weakness = this.weaknesses.get(key);
      if (weakness === undefined) {
        const { weaknessOf } = await import('./token-strength');
        weakness = weaknessOf(record.newestToken, record.newestChain, retired);
        this.weaknesses.set(key, weakness);
      }
      // A renewal that rests on what is retired came from an authority no better than the one before:
      // renewing with it again would not help. It needs another authority, and is not asked again.
      if (weakness)
        due.push(dueRecordOf(record, record.newestIsRenewal ? 'retiredAgain' : 'retired', weakness));
    }
    return due;
  }

  /**
   * Hash-tree renewal (RFC 4998 §5.2) of every record whose hash IT retired: the documents found
   * (where certified, in a watched folder, in the folders given) are renewed to SHA-512, one request
   * per authority; the rest are listed, and their records stay as they are.
   */
  private async renewHashTrees(look: RenewalLook, options: LookOptions): Promise<void> {
    const documents = this.hashTreeDue();
    if (documents.length === 0) return;
    const { findDocuments } = await import('./find-documents');
    const { found, missing } = await findDocuments(documents, options.documentFolders ?? []);
    look.hashTree.missing = missing;
    for (const profileId of new Set(documents.map((document) => document.profileId))) {
      const ids = new Set(documents.filter((d) => d.profileId === profileId).map((d) => d.certificationId));
      const mine = found.filter((document) => ids.has(document.certificationId));
      if (mine.length === 0) continue;
      const authority = await this.deps.authorityFor(profileId);
      // Without an authority nothing is renewed; the documents are not "missing" for it.
      if (!authority) continue;
      // A request's times are the engine's (real time), not the clock renewal reads.
      const opened = this.deps.hashTrees.open(profileId, authority.url, mine);
      if (opened === null) continue;
      look.opened.push(opened.id);
      look.hashTree.renewing += opened.documents;
      this.deps.log.log('info', 'records.hash_tree_renewal_opened', {
        renewal: opened,
        documents: mine.length,
      });
    }
  }

  /**
   * Certifications timestamped before records (v2 and v3 receipts) get one: their receipts, token
   * and validation data inside, are timestamped together, one request per authority.
   */
  private async recordReceipts(look: RenewalLook): Promise<void> {
    const without = this.deps.receiptRecords.without();
    for (const profileId of new Set(without.map((row) => row.profileId))) {
      const authority = await this.deps.authorityFor(profileId);
      if (!authority) continue;
      const receipts = without
        .filter((row) => row.profileId === profileId)
        .map((row) => ({
          certificationId: row.certificationId,
          text: this.deps.receiptTextOf(row.certificationId),
        }))
        // Frozen for good: only a receipt that can be checked (its log key known) is timestamped.
        .filter(
          (receipt): receipt is { certificationId: number; text: string } =>
            receipt.text !== null && (JSON.parse(receipt.text) as { log_key: unknown }).log_key !== null,
        );
      const opened = this.deps.receiptRecords.open(profileId, authority.url, receipts);
      if (opened === null) continue;
      look.opened.push(opened);
      look.receiptRecords += receipts.length;
      this.deps.log.log('info', 'records.receipt_records_opened', {
        renewal: opened,
        receipts: receipts.length,
      });
    }
  }

  /** Documents whose records are to be renewed to a stronger hash (for `renew --dry-run`): IT retired theirs. */
  hashTreeDue(): DocumentToRenew[] {
    const retired = this.deps.itPolicy?.().retiredAlgorithms ?? DEFAULT_RETIRED;
    return this.deps.hashTrees.due(
      retired.filter((name): name is TreeHash => name === 'sha256'),
      this.deps.now(),
    );
  }

  /** What the app shows: renewed when, and what needs attention. */
  status(): RecordsStatus {
    const { renewals } = this.deps;
    const now = this.deps.now();
    const last = renewals.lastRenewal();
    const outlook = renewals.outlook(now, this.marginMs());
    const waiting = renewals.waiting();
    const sum = (key: 'records' | 'documents') => waiting.reduce((total, renewal) => total + renewal[key], 0);
    const problem = waiting.find((renewal) => renewal.problem !== null)?.problem ?? null;
    const noAuthority = this.lastLook?.noAuthority ?? [];
    const missing = this.lastLook?.hashTree.missing ?? [];
    return {
      notFound: missing.length ? { documents: missing.length, matters: byMatter(missing) } : null,
      all: renewals.all(),
      lastRenewal: last && { at: last.genTime, authority: last.authority },
      ...outlook,
      noAuthority: {
        records: noAuthority.length,
        documents: noAuthority.reduce((total, record) => total + record.documents, 0),
      },
      waiting: waiting.length
        ? { records: sum('records'), documents: sum('documents'), problem: readStoredSaid(problem) }
        : null,
    };
  }

  /** When the next record falls due for renewal, or null when there are none. */
  nextDueAt(): number | null {
    return this.deps.renewals.outlook(this.deps.now(), this.marginMs()).nextDueAt;
  }

  /** Looks, if a period has passed since the last look (or `now` when asked): opens renewals for what is due. */
  async look(asked = false, options: LookOptions = {}): Promise<RenewalLook | null> {
    // One look at a time: the background's and a command's would each find the same documents due.
    while (this.looking) await this.looking.catch(() => undefined);
    const now = this.deps.now();
    if (!asked && (now < this.nextLookAt || this.deps.policy?.lookInBackground === false)) return null;
    this.nextLookAt = now + (this.deps.policy?.checkEveryMs ?? DEFAULT_RENEWAL_POLICY.checkEveryMs);
    const looking = this.lookNow(now, options);
    this.looking = looking;
    try {
      return await looking;
    } finally {
      this.looking = null;
    }
  }

  private async lookNow(now: number, options: LookOptions): Promise<RenewalLook> {
    const due = await this.due();
    const look: RenewalLook = {
      due,
      opened: [],
      noAuthority: [],
      needsStrongerAuthority: due.filter((record) => record.why === 'retiredAgain'),
      hashTree: { renewing: 0, missing: [] },
      receiptRecords: 0,
    };
    const renewable = due.filter((record) => record.why !== 'retiredAgain');
    // One request per authority and hash: a chain keeps its hash (RFC 4998 §5.1).
    for (const group of new Set(renewable.map((record) => `${record.profileId}\n${record.hash}`))) {
      const records = renewable.filter((record) => `${record.profileId}\n${record.hash}` === group);
      const profileId = (records[0] as DueRecord).profileId;
      const authority = await this.deps.authorityFor(profileId);
      if (!authority) {
        look.noAuthority.push(...records);
        continue;
      }
      const opened = this.deps.renewals.open(profileId, authority.url, records, now);
      if (opened === null) continue;
      look.opened.push(opened);
      this.deps.log.log('info', 'records.renewal_opened', { renewal: opened, records: records.length });
    }
    await this.renewHashTrees(look, options);
    await this.recordReceipts(look);
    this.deps.settings.set(SETTING.renewalCheckedAt, String(now));
    this.lastLook = look;
    return look;
  }
}
