import type { LanguageChoice } from './locales/languages';
import type { ErrorCode, FILE_PROBLEM_CODES } from './errors';
import type { ProfileKind, SecretsSet, ServiceProfile } from './profiles';
import type { ReceiptVerdict, SealVerdict } from './receipt';
import type { LocalState, StateCounts } from './states';
import type { Said } from './said';

/**
 * The shapes the core shows its shells: the renderer across IPC, the CLI in-process. Types only;
 * main produces them and every shell reads the same definitions.
 */
export type Verification = 'verified' | 'invalid' | 'unverifiable';

export interface CertificationRow {
  id: number;
  profileId: string;
  requestId: string;
  filePath: string;
  fileName: string;
  fileSize: number;
  assetHash: string;
  assetType: string;
  sourceSystem: string;
  eventType: string;
  state: LocalState;
  attempts: number;
  nextAttemptAt: number | null;
  serviceId: string | null;
  serviceState: string | null;
  errorCode: ErrorCode | null;
  /** Why it failed, or why the last attempt or look did not work: said, for each shell to word. */
  errorMessage: Said | null;
  rawResponse: string | null;
  /** The service's evidence as it sent it (parsed JSON), kept whatever its shape. */
  evidence: unknown;
  verification: Verification | null;
  verificationMessage: Said | null;
  createdAt: number;
  updatedAt: number;
  anchoredAt: number | null;
  /** The operating-system user who certified it, and the computer's name (null for rows made before these were recorded). */
  certifiedBy: string | null;
  certifiedOn: string | null;
  /** The person who certified, as they wrote their name and firm once (null before it was set). */
  certifierName: string | null;
  certifierFirm: string | null;
  /** The case or client-matter number the batch was certified for; kept on this computer, never sent. */
  matter: string | null;
  /** One certify action (drop, command) = one batch: the list shows a batch's files in path order. */
  batchId: number | null;
  /**
   * Independent time (RFC 3161): null when no timestamping authority is set for the profile;
   * `waiting` (with the reason when an attempt failed) until the authority's token is checked and
   * kept; then who confirmed the time, and when (the token's genTime, ms).
   */
  timestampState: 'waiting' | 'confirmed' | null;
  timeConfirmedBy: string | null;
  timeConfirmedAt: number | null;
  timestampProblem: Said | null;
  /** JSON: the path from this file's hash to its batch's root ({side, hash}[]). */
  timestampPath: string | null;
  /** The watched folder it was found in; null for what was dropped or named. */
  watchedFolderId: number | null;
  /** The certification of this file's earlier content, when the file changed after it was certified. */
  followsId: number | null;
}

/** What a person did to a certification besides certifying it, for the custody register. */
export interface AuditEntry {
  at: number;
  action: 'removed' | 'retried';
  certificationId: number;
  matter: string | null;
  fileName: string;
  filePath: string;
  fileSize: number;
  assetHash: string;
  eventType: string;
  stateBefore: LocalState;
  byUser: string | null;
  onComputer: string | null;
}

/** The list's sortable columns; `added` is batch by batch, newest first, each in path order. */
export const SORT_COLUMNS = ['added', 'file', 'matter', 'event', 'state'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export interface ListSort {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

/** A matter and how many certifications of each state it holds (rows without one: matter null). */
export interface MatterCount {
  matter: string | null;
  counts: StateCounts;
}

/** The matters of the active profile: the most recently used (for the batch form) and each one's counts. */
export interface MattersView {
  recent: string[];
  counts: MatterCount[];
}

/** A row as the list shows it: the heavy raw answer and evidence stay behind until details are asked for. */
export type RowView = Omit<CertificationRow, 'rawResponse' | 'evidence'>;

export interface HistoryEntry {
  state: LocalState;
  at: number;
  note: Said | null;
}

export interface CertificationDetails {
  row: CertificationRow;
  history: HistoryEntry[];
  /** Where it was certified: the profile's environment and the service's address. */
  environment: ProfileSummary & { baseUrl: string | null };
  /** Its entry in the service's log, once anchored with evidence we can read. */
  logPosition: { entry: number; of: number } | null;
}

export interface ListPage {
  rows: RowView[];
  /** How many rows match the same filter and search: the list's length, never guessed. */
  total: number;
}

/**
 * `standby`: another process on this computer is sending this queue; this one waits its turn.
 * `auth_failed`: the service refused the credentials. `needs_setup`: the active profile cannot be
 * used as it is (a secret missing from the keychain, the keychain unavailable): nothing is sent
 * until it is fixed in Settings or with `evidence-desk profile set`. `paused`: the person paused
 * sending (from the tray) until they resume it.
 */
export type Connectivity =
  'unknown' | 'online' | 'offline' | 'auth_failed' | 'standby' | 'needs_setup' | 'paused';

/** While the service refuses us or the profile needs setting up, nothing can be sent: waiting is pointless. */
export const isSendingBlocked = (state: Connectivity): boolean =>
  state === 'auth_failed' || state === 'needs_setup';

/** Which kind of process sends a queue: the desktop app, or `evidence-desk` on the command line. */
export type Sender = 'app' | 'command-line';

export interface ConnectivityStatus {
  state: Connectivity;
  message: Said | null;
  /** While on standby: who is sending this queue instead. */
  sentBy?: Sender;
  /** When the next attempt to reach the service is planned, while offline. */
  nextProbeAt: number | null;
}

export interface ProfileSummary {
  id: string;
  kind: ProfileKind;
  /** A sandbox: its certifications carry no legal weight. */
  demo: boolean;
}

export interface CoreStatus {
  profile: ProfileSummary;
  counts: StateCounts;
  connectivity: ConnectivityStatus;
  /** The service's log key changed; evidence is not checked with the new one until the user accepts it. */
  logKeyChange: LogKeyChangeView | null;
  /** Evidence records (RFC 4998) on this desk: renewed when, and what needs attention. */
  records: RecordsStatus;
}

/** Records and documents, counted together: a batch's documents share one record's timestamps. */
export interface RecordCount {
  records: number;
  documents: number;
}

/** The evidence records on this desk, as the app shows them (docs/evidence.md, "Evidence records"). */
export interface RecordsStatus {
  /** Every record here. */
  all: RecordCount;
  /** The newest renewal, or null when none was needed yet. */
  lastRenewal: { at: number; authority: string } | null;
  /** When the next record falls due for renewal (ms since the epoch), or null. */
  nextDueAt: number | null;
  /** When the earliest record stops holding unless renewed. */
  holdsUntil: number | null;
  /** Due now and not being renewed: their profile names no timestamping authority. */
  noAuthority: RecordCount;
  /** A renewal waiting for its authority; `problem` once an attempt failed. */
  waiting: (RecordCount & { problem: Said | null }) | null;
  /** Past the end of their newest timestamp's certificates without a renewal: need attention. */
  expired: RecordCount;
  /**
   * To be renewed to SHA-512 (IT retired SHA-256), but the documents were not found where they were
   * certified nor in a watched folder: how many, and the first few names of each matter.
   */
  notFound: { documents: number; matters: { matter: string | null; names: string[]; more: number }[] } | null;
}

export interface LogKeyChangeView {
  previousFingerprint: string;
  fingerprint: string;
  seenAt: number;
  /** IT decides which log keys this computer trusts (policy LockLogKeys): no one here can accept it. */
  lockedByPolicy: boolean;
}

/**
 * The one change stream: what the queue's writes did in one tick, with the new counts of the
 * active profile. `external` means another process wrote to the queue (the CLI while the app
 * runs): anything may have changed, so listeners look again.
 */
export interface QueueChanges {
  profileId: string;
  changed: { id: number; state: LocalState }[];
  removed: number[];
  counts: StateCounts;
  profileSwitched: boolean;
  external: boolean;
}

export type PathProblemCode = (typeof FILE_PROBLEM_CODES)[number];

export interface PathProblem {
  path: string;
  code: PathProblemCode;
  said: Said;
}

export type IntakeProgress =
  | { kind: 'file'; path: string; bytesDone: number; bytesTotal: number }
  | { kind: 'batch'; filesDone: number; filesTotal: number; bytesDone: number; bytesTotal: number };

/** A file whose exact content was certified here before: said, not queued again unless asked. */
export interface AlreadyCertified {
  path: string;
  earlier: Pick<CertificationRow, 'id' | 'fileName' | 'createdAt' | 'state'>;
}

export interface CertifyResult {
  queued: number;
  problems: PathProblem[];
  alreadyCertified: AlreadyCertified[];
}

export interface EvidenceCheck {
  verification: Verification;
  message: Said;
}

export interface FileVerification {
  path: string;
  assetHash: string;
  certifications: { row: CertificationRow; check: EvidenceCheck }[];
  /** None of this content, but certifications of a file of the same name: it has changed since. */
  sameName: { id: number; fileName: string; createdAt: number; assetHash: string }[];
}

/** A document checked against its receipt or certificate, or against this computer's register. */
export type DocumentVerification =
  | ({ kind: 'register' } & FileVerification)
  | {
      kind: 'proof';
      path: string;
      assetHash: string;
      verdict: ReceiptVerdict;
      /** Signed as made on a sandbox, or said so by the receipt. */
      demo: boolean;
      /** A certificate PDF's own seal; null for a receipt file. */
      seal: SealVerdict | null;
    };

export type { LanguageChoice };

export interface SettingsView {
  active: string;
  profile: ServiceProfile | null;
  /** Whether each secret is set — never the secret. */
  secretsSet: SecretsSet | null;
  /** A receipt is written beside each certified file once it is anchored. */
  receiptsBesideFiles: boolean;
  /** The screens' language: the computer's, or one chosen. */
  language: LanguageChoice;
  /** Whether Evidence Desk starts at login; null where the shell cannot (tests, the CLI). */
  launchAtLogin: boolean | null;
  /** The source system certifications name; `byPolicy` when IT sets it (it cannot be changed here). */
  sourceSystem: { name: string; byPolicy: boolean };
  /** Who certifies here, as written once (null until then). */
  certifier: { name: string | null; firm: string | null };
}

export interface ConnectionTest {
  ok: boolean;
  /** Why not; null when it worked. */
  message: Said | null;
  /** When it worked: how long the token the service issued is valid. */
  tokenSeconds?: number;
}

/** What the menus, the dock and a second launch ask the window to do. */
export type ShellCommand =
  { kind: 'add-paths'; paths: string[] } | { kind: 'verify-path'; path: string } | { kind: 'open-settings' };

/** Which certifications leave the machine: chosen ids, or everything a filter shows. */
export interface EvidenceSelection {
  ids?: number[];
  states?: LocalState[];
  search?: string;
  matter?: string;
}

/** How far a kit being saved is: certificates made of all chosen (then the register and the zip). */
export interface KitProgress {
  done: number;
  total: number;
  /** Sealing the kit: null while the authority is asked, or when its pace allows the request (ms since the epoch). */
  sealingUntil?: number | null;
}

export interface ExportResult {
  certifications: number;
  dir: string | null;
  zip: string | null;
  /** The register's CSV file, for a register export. */
  file: string | null;
  /** Beside it, one row per event of each certification (its timeline, for a spreadsheet). */
  eventsFile: string | null;
  /** A kit saved complete while its authority could not seal it: why, and that its seal comes later. */
  sealWaiting?: Said | null;
}

export type { WatchMethod, WatchStatus, WatchedFolderChoices, WatchedFolderView } from './watched-folders';
