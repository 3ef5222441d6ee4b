import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SandboxDb = Database.Database;

// One entry per schema version, applied in order; user_version records how far a file has come.
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE clients (
    client_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    api_key TEXT NOT NULL UNIQUE,
    api_secret_hash TEXT NOT NULL,
    hmac_key TEXT NOT NULL,
    require_signature INTEGER NOT NULL DEFAULT 0,
    require_api_key INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE tokens (
    token_hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES clients(client_id),
    expires_at INTEGER NOT NULL
  );
  CREATE TABLE certifications (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    client_id TEXT NOT NULL REFERENCES clients(client_id),
    request_id TEXT NOT NULL,
    asset_hash TEXT NOT NULL,
    asset_type TEXT NOT NULL,
    source_system TEXT NOT NULL,
    event_type TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'anchored', 'failed')),
    failure_code TEXT,
    failure_message TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    anchored_at INTEGER,
    leaf_index INTEGER UNIQUE,
    leaf_input TEXT,
    leaf_hash TEXT,
    tree_size INTEGER,
    inclusion_proof TEXT
  );
  CREATE INDEX certifications_pending ON certifications(state, seq);
  CREATE TABLE idempotency (
    client_id TEXT NOT NULL,
    request_id TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    in_flight INTEGER NOT NULL,
    response_status INTEGER,
    response_body TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (client_id, request_id)
  );
  CREATE TABLE tree_heads (
    tree_size INTEGER PRIMARY KEY,
    timestamp INTEGER NOT NULL,
    root_hash TEXT NOT NULL,
    signature TEXT NOT NULL
  );
  `,
  // 2: the log's complete subtrees (merkle.ts), so a batch is anchored without reading every leaf.
  // A log anchored before them is filled in when the sandbox starts (log-nodes.ts).
  `
  CREATE TABLE log_nodes (
    level INTEGER NOT NULL,
    position INTEGER NOT NULL,
    hash BLOB NOT NULL,
    PRIMARY KEY (level, position)
  ) WITHOUT ROWID;
  `,
];

export class SandboxDbError extends Error {}

/** Opens (creating if needed) the sandbox database and brings its schema up to date. */
export function openSandboxDb(path: string): SandboxDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // WAL with NORMAL sync survives any process crash; only a power cut may lose the last commits,
  // an acceptable trade for a local test service, and it removes an fsync from every request.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: SandboxDb): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    db.close();
    throw new SandboxDbError(
      `The sandbox database was written by a newer version (schema ${current}, this one knows ${MIGRATIONS.length}); it was left untouched.`,
    );
  }
  const apply = db.transaction(() => {
    for (let version = current; version < MIGRATIONS.length; version++)
      db.exec(MIGRATIONS[version] as string);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  });
  apply();
}

export function getSetting(db: SandboxDb, key: string): string | undefined {
  const row = sql(db, 'SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setSetting(db: SandboxDb, key: string, value: string): void {
  sql(
    db,
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}

const statementCache = new WeakMap<SandboxDb, Map<string, Database.Statement>>();

/** A prepared statement, compiled once per database: preparing on every request was the hot spot. */
export function sql(db: SandboxDb, text: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let statement = cache.get(text);
  if (!statement) cache.set(text, (statement = db.prepare(text)));
  return statement;
}
