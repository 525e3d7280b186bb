import { noteWrite } from "./pendingWrites.js";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { CommitTsPlaceholder } from "convex/values";
import type { Value } from "convex/values";
import type { AnyTestConvex } from "./engine.js";
import { Indexes } from "./indexes.js";
import { matches } from "./returns.js";
import type { ValidatorJson } from "./returns.js";
import type { DocumentStore, DocumentWrite, StoredDocument } from "./store.js";
import { checkDocument } from "./valueLimits.js";

/**
 * The parts of convex-test's in-memory `DatabaseFake` (node_modules/convex-test/dist/index.js)
 * that the local backend takes over: its committed documents, the pending writes of the
 * transaction levels, id generation and the top-level commit.
 */
export type DatabaseFake = {
  _documents: Record<string, StoredDocument>;
  _writes: Record<string, StoredDocument | null>[];
  _lastCreationTime: number;
  _generateId(table: string): string;
  _addWrite(id: string, value: StoredDocument | null): void;
  insert(table: string, value: Record<string, Value>): string;
  commit(commitTs: bigint | null): void;
  rollbackWrites(): void;
  get(table: string | undefined, id: string): StoredDocument | null;
  patch(table: string, id: string, value: Record<string, unknown>): void;
  _schema: { schemaValidation: boolean; tables: Map<string, { documentType?: ValidatorJson }> } | null;
  _validate(table: string, doc: Record<string, unknown>): void;
};

const CAPTURE_KEY = "__modeljuryCaptureComponents";

/**
 * convex-test keeps its database in a closure. `registerComponent` assigns into the object
 * that holds every component's database, so a setter on Object.prototype for one throwaway
 * component name is handed that object, the root component's database included.
 */
export function captureRootDatabase(t: AnyTestConvex): DatabaseFake {
  let components: Record<string, { db: DatabaseFake }> | undefined;
  Object.defineProperty(Object.prototype, CAPTURE_KEY, {
    configurable: true,
    set(this: Record<string, { db: DatabaseFake }>) {
      // The receiver is the object being captured.
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      components = this;
    },
  });
  try {
    (t as unknown as { registerComponent(path: string, schema: null, modules: object): void }).registerComponent(
      CAPTURE_KEY,
      null,
      { "./_generated/api.js": () => Promise.resolve({}) },
    );
  } finally {
    delete (Object.prototype as Record<string, unknown>)[CAPTURE_KEY];
  }
  const db = components?.[""]?.db;
  if (!db) throw new Error("could not reach convex-test's database (has convex-test changed?)");
  return db;
}

/** convex-test's own rule: an id is digits followed by its table's name. */
export function tableOfId(id: string): string {
  return id.replace(/^[0-9]+/, "");
}

const TYPICAL_ID_LENGTH = 32;
const MIN_DIGITS = 10;

/**
 * Ids in convex-test's shape (digits, then the table name) whose digits look random: a
 * keyed permutation of a counter that only grows, so an id is never handed out twice, even
 * across restarts, and its first eight characters tell records apart.
 */
export class IdGenerator {
  constructor(
    private readonly key: bigint,
    public next: number,
  ) {}

  static randomKey(): bigint {
    return randomBytes(8).readBigUInt64LE();
  }

  generate(table: string): string {
    const digits = Math.max(MIN_DIGITS, TYPICAL_ID_LENGTH - table.length);
    const bits = BigInt(Math.floor(digits * Math.log2(10)));
    const counter = BigInt(this.next++);
    if (counter >= 1n << bits) throw new Error(`id space of table ${table} exhausted`);
    return permute(counter, bits, this.key).toString().padStart(digits, "0") + table;
  }
}

/** A bijection of [0, 2^bits): odd multiplications, additions and xor-shifts mod 2^bits. */
function permute(value: bigint, bits: bigint, key: bigint): bigint {
  const mask = (1n << bits) - 1n;
  const shift = bits / 2n;
  let x = value;
  const m1 = (key | 1n) & mask;
  const m2 = ((key >> 7n) * 0x9e3779b97f4a7c15n) | 1n;
  for (let round = 0; round < 3; round++) {
    x = (x * m1) & mask;
    x ^= x >> shift;
    x = (x + (key >> BigInt(round * 3))) & mask;
    x = (x * (m2 & mask)) & mask;
    x ^= x >> (shift + 1n);
  }
  return x;
}

function substituteCommitTs(value: Value | undefined, commitTs: bigint): Value | undefined {
  if (value instanceof CommitTsPlaceholder) return commitTs;
  if (Array.isArray(value)) return value.map((item) => substituteCommitTs(item, commitTs) as Value);
  if (value !== null && typeof value === "object" && !(value instanceof ArrayBuffer)) {
    const out: Record<string, Value> = {};
    for (const [key, item] of Object.entries(value)) out[key] = substituteCommitTs(item, commitTs) as Value;
    return out;
  }
  return value;
}

/** A committed change as subscribers see it: the document before and after. */
export type CommittedWrite = DocumentWrite & { previous: StoredDocument | null };

export type CommitListener = (writes: CommittedWrite[]) => void;

/** The scheduled mutation whose own commit also marks its job done (see LocalDatabase.commit). */
export const scheduledMutationStorage = new AsyncLocalStorage<{ jobId: string; marked: boolean }>();

const ID_COUNTER_KEY = "idCounter";
const ID_KEY_KEY = "idKey";

/**
 * convex-test's database with the local backend's storage rules: ids that are never reused,
 * every top-level commit written to the DocumentStore (when there is one) before it is
 * applied in memory, and listeners told what each commit changed.
 */
export class LocalDatabase {
  readonly ids: IdGenerator;
  /** The timestamp of the latest top-level commit (0 before any), as queries see it. */
  lastCommitTs = 0n;
  /** The sorted indexes over the committed documents (created by `load`). */
  private indexes: Indexes | null = null;
  private readonly listeners = new Set<CommitListener>();
  private persistedCounter: number;

  constructor(
    readonly fake: DatabaseFake,
    readonly store: DocumentStore | null,
  ) {
    const storedKey = store?.meta(ID_KEY_KEY);
    const key = storedKey !== undefined ? BigInt(storedKey) : IdGenerator.randomKey();
    if (store && storedKey === undefined) store.putMeta(ID_KEY_KEY, key.toString());
    this.persistedCounter = Number(store?.meta(ID_COUNTER_KEY) ?? "0");
    this.ids = new IdGenerator(key, this.persistedCounter);
    fake._generateId = (table) => this.ids.generate(table);
    // convex-test checks every written document against the schema by trying a union's members
    // with an exception each (a status field's later literals cost more than the write). A
    // document that fits without that is accepted, as convex-test would; any other goes to
    // convex-test's own check, for its message.
    const validate = fake._validate.bind(fake);
    fake._validate = (table, doc) => {
      const validator = fake._schema?.schemaValidation ? fake._schema.tables.get(table)?.documentType : undefined;
      if (validator !== undefined && matches(validator, doc, false)) return;
      validate(table, doc);
    };
    // Convex's limits on a written document (valueLimits.ts); system tables are the backend's own.
    const addWrite = fake._addWrite.bind(fake);
    fake._addWrite = (id, value) => {
      const table = tableOfId(id);
      if (value !== null && !table.startsWith("_")) checkDocument(value);
      addWrite(id, value);
      noteWrite(fake._writes[fake._writes.length - 1]!, table, id);
    };
    const commit = fake.commit.bind(fake);
    fake.commit = (commitTs) => {
      if (commitTs === null || fake._writes.length !== 1) {
        commit(commitTs);
        return;
      }
      this.markScheduledMutation();
      const pending = fake._writes[0];
      const writes: CommittedWrite[] = Object.entries(pending).map(([id, value]) => ({
        id,
        table: tableOfId(id),
        value: value === null ? null : (substituteCommitTs(value, commitTs) as StoredDocument),
        previous: fake._documents[id] ?? null,
      }));
      const meta: Record<string, string> = {};
      if (this.ids.next !== this.persistedCounter) meta[ID_COUNTER_KEY] = String(this.ids.next);
      if (this.store && (writes.length > 0 || meta[ID_COUNTER_KEY] !== undefined)) {
        this.store.commit(writes, meta);
        this.persistedCounter = this.ids.next;
      }
      commit(commitTs);
      this.lastCommitTs = commitTs;
      if (writes.length > 0) {
        // The documents as committed (convex-test resolves commit timestamps itself).
        for (const write of writes) if (write.value !== null) write.value = fake._documents[write.id] ?? write.value;
        this.indexes?.apply(writes);
      }
      // Every commit, even one that wrote nothing: its timestamp is what a mutation answers.
      for (const listener of this.listeners) listener(writes);
    };
  }

  /** Loads the store's documents into convex-test's memory and indexes them; returns how many. */
  load(): number {
    let count = 0;
    let lastCreationTime = this.fake._lastCreationTime;
    for (const document of this.store?.documents() ?? []) {
      this.fake._documents[document._id] = document;
      if (document._creationTime > lastCreationTime) lastCreationTime = document._creationTime;
      count++;
    }
    this.fake._lastCreationTime = lastCreationTime;
    this.indexes = new Indexes(this.fake);
    return count;
  }

  /** The number of commits applied: where a transaction starting now reads (its snapshot). */
  snapshotSeq(): number {
    return this.indexes?.seq ?? 0;
  }

  /** Forgets document and index versions no running transaction reads any more. */
  pruneVersions(): void {
    this.indexes?.prune();
  }

  onCommit(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Committed documents of a table (no transaction needed: commits are synchronous). */
  committed(table: string): StoredDocument[] {
    return Object.values(this.fake._documents).filter((document) => tableOfId(document._id) === table);
  }

  /**
   * A scheduled mutation's effects and its job's "success" commit together, so a crash can
   * never leave its effects without the job being done (which would run it twice).
   */
  private markScheduledMutation(): void {
    const job = scheduledMutationStorage.getStore();
    if (!job || job.marked) return;
    job.marked = true;
    const current = this.fake.get("_scheduled_functions", job.jobId);
    if (current && current.state !== null && (current.state as { kind: string }).kind === "pending") {
      this.fake._writes[0][job.jobId] = { ...current, state: { kind: "success" }, completedTime: Date.now() };
    }
  }
}
