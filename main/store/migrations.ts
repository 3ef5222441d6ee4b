/** One entry per schema version, in order; the store applies those a file has not seen yet. */
export const MIGRATIONS: readonly string[] = [
  // 1: the queue.
  `
  CREATE TABLE certifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    profile_id TEXT NOT NULL,
    request_id TEXT NOT NULL UNIQUE,
    file_path TEXT NOT NULL,
    file_name TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    asset_hash TEXT NOT NULL,
    asset_type TEXT NOT NULL,
    source_system TEXT NOT NULL,
    event_type TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued', 'submitting', 'pending', 'anchored', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    service_id TEXT,
    service_state TEXT,
    error_code TEXT,
    error_message TEXT,
    raw_response TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX certifications_due ON certifications(profile_id, state, next_attempt_at);
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  // 2: evidence and its verification, and a timeline of every state a row went through after queued.
  `
  ALTER TABLE certifications ADD COLUMN evidence TEXT;
  ALTER TABLE certifications ADD COLUMN verification TEXT;
  ALTER TABLE certifications ADD COLUMN verification_message TEXT;
  ALTER TABLE certifications ADD COLUMN anchored_at INTEGER;
  CREATE TABLE state_history (
    certification_id INTEGER NOT NULL REFERENCES certifications(id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    at INTEGER NOT NULL,
    note TEXT
  );
  CREATE INDEX state_history_by_certification ON state_history(certification_id, at);
  -- A row's creation (queued, at created_at) opens its timeline without a history row of its own.
  INSERT INTO state_history (certification_id, state, at) SELECT id, state, updated_at FROM certifications WHERE state <> 'queued';
  `,
  // 3: one process at a time sends a queue (the app and the CLI may both be open on it).
  `
  CREATE TABLE sync_lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    holder TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  `,
  // 4: the list reads newest first, page by page, without sorting the whole queue each time.
  `
  CREATE INDEX certifications_newest ON certifications(profile_id, id);
  `,
  // 5: who certified each file, and on which computer (receipts and the custody register say so).
  `
  ALTER TABLE certifications ADD COLUMN certified_by TEXT;
  ALTER TABLE certifications ADD COLUMN certified_on TEXT;
  `,
  // 6: matters; batches, so a batch reads in path order; and the audit trail of what people did to
  // rows (a removed row's own timeline goes with it, so its entry keeps what it was).
  `
  ALTER TABLE certifications ADD COLUMN matter TEXT;
  ALTER TABLE certifications ADD COLUMN batch_id INTEGER;
  UPDATE certifications SET batch_id = created_at;
  CREATE INDEX certifications_by_batch ON certifications(profile_id, batch_id DESC, file_path);
  CREATE INDEX certifications_by_matter ON certifications(profile_id, matter);
  CREATE TABLE audit_trail (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('removed', 'retried')),
    profile_id TEXT NOT NULL,
    certification_id INTEGER NOT NULL,
    matter TEXT,
    file_name TEXT NOT NULL,
    file_path TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    asset_hash TEXT NOT NULL,
    event_type TEXT NOT NULL,
    state_before TEXT NOT NULL,
    by_user TEXT,
    on_computer TEXT
  );
  CREATE INDEX audit_trail_by_profile ON audit_trail(profile_id, at);
  `,
  // 7: "already certified?" asks by hash for every file of a batch; and who holds the sync lease
  // (the app or the command line), so the other can say who is sending.
  `
  CREATE INDEX certifications_by_hash ON certifications(profile_id, asset_hash);
  ALTER TABLE sync_lease ADD COLUMN sender TEXT NOT NULL DEFAULT 'app';
  `,
  // 8: independent time. Each batch's files are put under one Merkle root, and one RFC 3161 request
  // asks a timestamping authority (TSA) to sign it; the request waits here, offline first, like a
  // certification. A row keeps its path to its batch's root.
  `
  CREATE TABLE timestamp_batches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    profile_id TEXT NOT NULL,
    tsa_url TEXT NOT NULL,
    root TEXT NOT NULL,
    size INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'confirmed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    problem TEXT,
    token TEXT,
    authority TEXT,
    gen_time INTEGER,
    chain TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX timestamp_batches_due ON timestamp_batches(state, next_attempt_at);
  ALTER TABLE certifications ADD COLUMN timestamp_batch_id INTEGER REFERENCES timestamp_batches(id);
  ALTER TABLE certifications ADD COLUMN timestamp_path TEXT;
  CREATE INDEX certifications_unstamped ON certifications(profile_id, timestamp_batch_id);
  `,
  // 9: watched folders. Each folder's choices and how it is doing (said, for every shell); what was
  // seen in it (path, size, time, content and its certification), so a restart catches up on what
  // changed without reading the rest; and on a row, the folder it came from and the certification
  // of the file's earlier content it follows ("changed after certification").
  `
  CREATE TABLE watched_folders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    profile_id TEXT NOT NULL,
    path TEXT NOT NULL,
    matter TEXT,
    event_type TEXT NOT NULL,
    asset_type TEXT NOT NULL,
    source_system TEXT NOT NULL,
    include TEXT,
    subfolders INTEGER NOT NULL DEFAULT 1,
    receipts_beside INTEGER NOT NULL DEFAULT 0,
    method TEXT NOT NULL DEFAULT 'auto' CHECK (method IN ('auto', 'events', 'poll')),
    poll_seconds INTEGER NOT NULL DEFAULT 60,
    settle_ms INTEGER NOT NULL DEFAULT 3000,
    paused INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'starting',
    polled INTEGER NOT NULL DEFAULT 0,
    problem TEXT,
    status_at INTEGER,
    created_at INTEGER NOT NULL,
    UNIQUE (profile_id, path)
  );
  CREATE TABLE watched_files (
    folder_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    asset_hash TEXT NOT NULL,
    certification_id INTEGER,
    PRIMARY KEY (folder_id, path)
  );
  ALTER TABLE certifications ADD COLUMN watched_folder_id INTEGER;
  ALTER TABLE certifications ADD COLUMN follows_id INTEGER;
  `,
  // 10: faster queueing. "Is this content certified here?" reads an index of the hash's first 64 bits
  // (an integer, filled by the queue and here by evidence_hash_key, registered on the connection)
  // instead of the 64-character text.
  `
  ALTER TABLE certifications ADD COLUMN hash_key INTEGER;
  UPDATE certifications SET hash_key = evidence_hash_key(asset_hash);
  DROP INDEX certifications_by_hash;
  CREATE INDEX certifications_by_hash_key ON certifications(hash_key);
  `,
  // 11: the times the log signed, kept when a row is anchored (loggedTimes; filled here by
  // evidence_logged_* for rows anchored before it), with whether its evidence holds (a copy of the
  // row's verification, which a trigger keeps the same). A table of
  // their own: read from the row, they sit behind its evidence and the service's answer, and
  // checking a register of 10,000 lines would read every row's overflow pages.
  `
  CREATE TABLE logged_times (
    certification_id INTEGER PRIMARY KEY REFERENCES certifications(id) ON DELETE CASCADE,
    verified INTEGER NOT NULL,
    certified_at TEXT,
    tree_head_at TEXT
  );
  INSERT INTO logged_times (certification_id, verified, certified_at, tree_head_at)
    SELECT id, verification IS 'verified', evidence_logged_certified_at(evidence), evidence_logged_tree_head_at(evidence)
    FROM certifications WHERE state = 'anchored';
  CREATE TRIGGER logged_times_follow_verification AFTER UPDATE OF verification ON certifications
  BEGIN
    UPDATE logged_times SET verified = NEW.verification IS 'verified' WHERE certification_id = NEW.id;
  END;
  `,
  // 12: checking a register against this computer reads its anchored certifications in order; an
  // index holding what that reads (partial: anchored rows only) spares reading every row, measured
  // 13.7 against 3.4 ms for 10,000.
  `
  CREATE INDEX certifications_anchored_facts ON certifications(profile_id, id, asset_hash, service_id, file_name)
    WHERE state = 'anchored';
  `,
  // 13: who certified, as the person wrote it once (their name and firm); the login stays beside it.
  `
  ALTER TABLE certifications ADD COLUMN certifier_name TEXT;
  ALTER TABLE certifications ADD COLUMN certifier_firm TEXT;
  `,
  // 14: validation data (long-term validation). What the issuers of a token's chain signed about it
  // (OCSP, else CRL) is collected once the token is kept, and retried until collected; tokens kept
  // before are due at once. Answers are kept per certificate for as long as they say they hold.
  `
  ALTER TABLE timestamp_batches ADD COLUMN validation TEXT;
  ALTER TABLE timestamp_batches ADD COLUMN validation_problem TEXT;
  ALTER TABLE timestamp_batches ADD COLUMN validation_attempts INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE timestamp_batches ADD COLUMN validation_due_at INTEGER;
  UPDATE timestamp_batches SET validation_due_at = 0 WHERE state = 'confirmed';
  CREATE INDEX timestamp_batches_validation_due ON timestamp_batches(validation_due_at)
    WHERE validation_due_at IS NOT NULL;
  CREATE TABLE certificate_status (
    certificate TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('ocsp', 'crl')),
    der BLOB NOT NULL,
    fetched_at INTEGER NOT NULL,
    good_until INTEGER NOT NULL
  );
  `,
  // 15: seals that wait for their authority: a kit saved complete but for its seal, which is added
  // to the kit (folder or zip) once it comes; or a certificate saved on its own, written where the
  // person chose once it is sealed. Each with the reason it waits.
  `
  CREATE TABLE kit_seals (
    id INTEGER PRIMARY KEY,
    profile_id TEXT NOT NULL,
    tsa_url TEXT NOT NULL,
    dir TEXT,
    zip TEXT,
    manifest_sha256 TEXT,
    certification_id INTEGER,
    file TEXT,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'sealed', 'given_up')),
    problem TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    due_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX kit_seals_due ON kit_seals(due_at) WHERE state = 'waiting';
  `,
  // 16: batches timestamped over an RFC 4998 hash tree (their token is the first archive timestamp
  // of each document's evidence record); batches made before keep their RFC 6962 tree and paths.
  `
  ALTER TABLE timestamp_batches ADD COLUMN tree TEXT NOT NULL DEFAULT 'rfc6962' CHECK (tree IN ('rfc6962', 'rfc4998'));
  `,
  // 17: evidence records renew themselves (RFC 4998 §5.2). A renewal is a request like a batch's
  // (kind 'renewal'), over a tree of the records' newest tokens, each frozen with its validation data
  // inside before it is covered (covered_token); archive_stamps say which record each renewal extends.
  // holds_until: when a token's certificates stop being valid, so renewal is due before. A renewal
  // of 100,000 documents' records announced them by scanning every row per record (11 s): indexed.
  `
  ALTER TABLE timestamp_batches ADD COLUMN kind TEXT NOT NULL DEFAULT 'batch' CHECK (kind IN ('batch', 'renewal'));
  ALTER TABLE timestamp_batches ADD COLUMN holds_until INTEGER;
  ALTER TABLE timestamp_batches ADD COLUMN covered_token TEXT;
  CREATE TABLE archive_stamps (
    batch_id INTEGER NOT NULL REFERENCES timestamp_batches(id),
    seq INTEGER NOT NULL,
    renewal_id INTEGER NOT NULL REFERENCES timestamp_batches(id),
    reduced TEXT NOT NULL,
    PRIMARY KEY (batch_id, seq)
  );
  CREATE INDEX archive_stamps_renewal ON archive_stamps(renewal_id);
  CREATE INDEX timestamp_batches_records ON timestamp_batches(kind, tree, state);
  -- A batch's (or a renewal's) rows, announced when its token comes: found, not scanned for.
  CREATE INDEX certifications_by_timestamp_batch ON certifications(timestamp_batch_id);
  `,
  // 18: hash-tree renewal (RFC 4998 §5.2) to a stronger hash, once IT retires SHA-256. It needs each
  // document, so a record becomes the document's own: a renewal row over SHA-512 (hash) starts a new
  // chain (new_chain) for each document found; chain_stamps keep its way to that renewal's root, the
  // chain it leaves (from_id: a batch, or an earlier hash-tree renewal) and how far that chain went
  // (prior_seq: the last archive_stamps seq it covers; renewals of it after are for other documents).
  `
  ALTER TABLE timestamp_batches ADD COLUMN hash TEXT NOT NULL DEFAULT 'sha256' CHECK (hash IN ('sha256', 'sha512'));
  ALTER TABLE timestamp_batches ADD COLUMN new_chain INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE chain_stamps (
    certification_id INTEGER NOT NULL REFERENCES certifications(id),
    renewal_id INTEGER NOT NULL REFERENCES timestamp_batches(id),
    from_id INTEGER NOT NULL REFERENCES timestamp_batches(id),
    prior_seq INTEGER NOT NULL,
    reduced TEXT NOT NULL,
    PRIMARY KEY (certification_id, renewal_id)
  );
  CREATE INDEX chain_stamps_renewal ON chain_stamps(renewal_id);
  CREATE INDEX chain_stamps_from ON chain_stamps(from_id);
  `,
  // 19: records for certifications timestamped before records (an RFC 6962 tree: v2 and v3 receipts).
  // Their token cannot start a record of the document, so the record's data object is their receipt,
  // token and validation data inside, kept here exactly as timestamped (receipt); a renewal row
  // (new_chain) is its first archive timestamp, renewed like any other.
  `
  CREATE TABLE receipt_records (
    certification_id INTEGER PRIMARY KEY REFERENCES certifications(id),
    renewal_id INTEGER NOT NULL REFERENCES timestamp_batches(id),
    receipt TEXT NOT NULL,
    reduced TEXT NOT NULL
  );
  CREATE INDEX receipt_records_renewal ON receipt_records(renewal_id);
  `,
  // 20: a million rows answer as ten do. Counts by matter and state are kept as rows change, by the
  // store (state-counts.ts; a trigger per row made queueing slower by a half): the status line and the
  // matters' panel read a few dozen rows, not a million. Names are searched
  // through a trigram index, filled after queueing rather than by it (name-index.ts) and up to
  // names_indexed.upto; a filter by state or by matter reads its own rows in the list's order.
  `
  CREATE TABLE state_counts (
    profile_id TEXT NOT NULL,
    matter TEXT,
    state TEXT NOT NULL,
    n INTEGER NOT NULL
  );
  CREATE INDEX state_counts_by_matter ON state_counts(profile_id, matter, state);
  INSERT INTO state_counts (profile_id, matter, state, n)
    SELECT profile_id, matter, state, COUNT(*) FROM certifications GROUP BY profile_id, matter, state;
  CREATE INDEX certifications_by_state ON certifications(profile_id, state, batch_id DESC);
  DROP INDEX certifications_by_matter;
  CREATE INDEX certifications_by_matter ON certifications(profile_id, matter, batch_id DESC);
  CREATE VIRTUAL TABLE certification_names USING fts5(
    file_name, content = 'certifications', content_rowid = 'id', tokenize = 'trigram'
  );
  INSERT INTO certification_names (certification_names) VALUES ('rebuild');
  CREATE TABLE names_indexed (upto INTEGER NOT NULL);
  INSERT INTO names_indexed (upto) SELECT IFNULL(MAX(id), 0) FROM certifications;
  CREATE TRIGGER certification_names_delete AFTER DELETE ON certifications
    WHEN OLD.id <= (SELECT upto FROM names_indexed)
  BEGIN
    INSERT INTO certification_names (certification_names, rowid, file_name) VALUES ('delete', OLD.id, OLD.file_name);
  END;
  CREATE TRIGGER certification_names_update AFTER UPDATE OF file_name ON certifications
    WHEN OLD.id <= (SELECT upto FROM names_indexed)
  BEGIN
    INSERT INTO certification_names (certification_names, rowid, file_name) VALUES ('delete', OLD.id, OLD.file_name);
    INSERT INTO certification_names (rowid, file_name) VALUES (NEW.id, NEW.file_name);
  END;
  `,
  // 21: the content keys apart from the rows (content-keys.ts). The intake writes new rows' keys to
  // a small table and merges it into the large one in key order.
  `
  CREATE TABLE content_keys (hash_key INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (hash_key, id)) WITHOUT ROWID;
  CREATE TABLE recent_content_keys (hash_key INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (hash_key, id)) WITHOUT ROWID;
  INSERT INTO content_keys (hash_key, id)
    SELECT hash_key, id FROM certifications WHERE hash_key IS NOT NULL ORDER BY hash_key, id;
  DROP INDEX certifications_by_hash_key;
  CREATE TRIGGER content_key_update AFTER UPDATE OF hash_key ON certifications
  BEGIN
    DELETE FROM content_keys WHERE hash_key = OLD.hash_key AND id = OLD.id;
    DELETE FROM recent_content_keys WHERE hash_key = OLD.hash_key AND id = OLD.id;
    INSERT INTO recent_content_keys (hash_key, id) SELECT NEW.hash_key, NEW.id WHERE NEW.hash_key IS NOT NULL;
  END;
  CREATE TRIGGER content_key_delete AFTER DELETE ON certifications
  BEGIN
    DELETE FROM content_keys WHERE hash_key = OLD.hash_key AND id = OLD.id;
    DELETE FROM recent_content_keys WHERE hash_key = OLD.hash_key AND id = OLD.id;
  END;
  `,
];
