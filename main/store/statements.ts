import type Database from 'better-sqlite3';

/** Prepares each SQL text once per connection: the store's modules run the same few statements often. */
export function statementCache(db: Database.Database): (text: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (text) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
}

/** Runs `query` over `ids` in chunks small enough for SQLite's parameter limit. */
export function inChunks<T>(ids: readonly number[], query: (chunk: number[], marks: string) => T[]): T[] {
  const out: T[] = [];
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    out.push(...query(chunk, chunk.map(() => '?').join(', ')));
  }
  return out;
}
