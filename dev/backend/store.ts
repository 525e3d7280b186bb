import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { convexToJson, jsonToConvex } from "convex/values";
import type { Value } from "convex/values";

/** A stored document: its fields plus `_id` and `_creationTime`. */
export type StoredDocument = { _id: string; _creationTime: number } & Record<string, Value>;

/** One document's committed change: the new version, or null when it was deleted. */
export type DocumentWrite = { id: string; table: string; value: StoredDocument | null };

export const STORE_FILE = "store.sqlite";

/**
 * The local backend's database on disk: SQLite (better-sqlite3) in WAL mode. A commit is in
 * the write-ahead log when `commit` returns, so a crash of the process (even `kill -9`) right
 * after it loses nothing, and a crash mid-write leaves the previous commit readable. The log
 * is synced to the disk at checkpoints (synchronous=NORMAL): an OS crash or power cut may lose
 * the last commits but never corrupts the store. MJ_STORE_SYNC=full syncs every commit too
 * (about 6 ms each here, on the event loop). Documents are kept as Convex JSON, one row each;
 * `meta` holds the id counter and cron run times.
 */
export class DocumentStore {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement<[string, string, string]>;
  private readonly remove: Database.Statement<[string]>;
  private readonly setMeta: Database.Statement<[string, string]>;
  private readonly getMeta: Database.Statement<[string], { value: string }>;
  private readonly commitTransaction: (writes: DocumentWrite[], meta: Record<string, string>) => void;

  constructor(readonly file: string) {
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma(process.env.MJ_STORE_SYNC === "full" ? "synchronous = FULL" : "synchronous = NORMAL");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS documents (id TEXT PRIMARY KEY, tbl TEXT NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `);
    this.upsert = this.db.prepare(
      "INSERT INTO documents (id, tbl, value) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value",
    );
    this.remove = this.db.prepare("DELETE FROM documents WHERE id = ?");
    this.setMeta = this.db.prepare(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    );
    this.getMeta = this.db.prepare("SELECT value FROM meta WHERE key = ?");
    this.commitTransaction = this.db.transaction((writes: DocumentWrite[], meta: Record<string, string>) => {
      for (const write of writes) {
        if (write.value === null) this.remove.run(write.id);
        else this.upsert.run(write.id, write.table, JSON.stringify(convexToJson(write.value)));
      }
      for (const [key, value] of Object.entries(meta)) this.setMeta.run(key, value);
    });
  }

  /** Opens (creating it if needed) the store in `dataDir`; `fresh` empties it first. */
  static open(dataDir: string, options: { fresh?: boolean } = {}): DocumentStore {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, STORE_FILE);
    if (options.fresh) {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    }
    return new DocumentStore(file);
  }

  /** Every stored document. */
  *documents(): Generator<StoredDocument> {
    const rows = this.db.prepare("SELECT value FROM documents").iterate() as IterableIterator<{ value: string }>;
    for (const row of rows) yield jsonToConvex(JSON.parse(row.value)) as StoredDocument;
  }

  /** Writes one commit (documents and meta entries) in one SQLite transaction. */
  commit(writes: DocumentWrite[], meta: Record<string, string> = {}): void {
    this.commitTransaction(writes, meta);
  }

  meta(key: string): string | undefined {
    return this.getMeta.get(key)?.value;
  }

  putMeta(key: string, value: string): void {
    this.setMeta.run(key, value);
  }

  /** What the banner says: documents held, by table, and the file's size. */
  stats(): { documents: number; tables: Record<string, number>; bytes: number } {
    const rows = this.db.prepare("SELECT tbl, COUNT(*) AS n FROM documents GROUP BY tbl").all() as {
      tbl: string;
      n: number;
    }[];
    const tables = Object.fromEntries(rows.map((row) => [row.tbl, row.n]));
    let bytes = 0;
    for (const suffix of ["", "-wal"]) {
      try {
        bytes += statSync(this.file + suffix).size;
      } catch {
        // not there
      }
    }
    return { documents: rows.reduce((sum, row) => sum + row.n, 0), tables, bytes };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
