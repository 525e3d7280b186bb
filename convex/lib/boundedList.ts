// Lists bounded in bytes as well as in rows: a list query takes rows of an index range until it
// has `count` of them or has read `bytes`, so no list can pass Convex's 16 MiB read limit per
// transaction however large its rows grow (lib/limits.ts LIST_READ_BYTES).
import { LIST_READ_BYTES, storedBytes } from "./limits";

export type BoundedRows<T> = {
  rows: T[];
  /** Bytes of the rows read (their JSON in UTF-8, what Convex counts near enough). */
  bytes: number;
  /** The byte budget stopped the list before `count` rows: more rows may follow. */
  cutByBytes: boolean;
};

/**
 * Rows of `source` in its order: at most `count`, and none after the bytes read reach `bytes`
 * (the row that reaches it is kept, so at most one row's size past the budget is read).
 */
export async function takeWithinBytes<T>(
  source: AsyncIterable<T>,
  count: number,
  bytes: number = LIST_READ_BYTES,
): Promise<BoundedRows<T>> {
  const rows: T[] = [];
  let read = 0;
  if (count <= 0) return { rows, bytes: read, cutByBytes: false };
  for await (const row of source) {
    rows.push(row);
    read += storedBytes(row);
    if (rows.length >= count) return { rows, bytes: read, cutByBytes: false };
    if (read >= bytes) return { rows, bytes: read, cutByBytes: true };
  }
  return { rows, bytes: read, cutByBytes: false };
}
