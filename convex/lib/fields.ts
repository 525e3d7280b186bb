// Projections of a row onto the fields a validator lists (see core/tests.ts, admin.ts).

/** The named fields of a row, leaving out those it does not have. */
export function pickFields<T extends object, K extends keyof T>(row: T, fields: readonly K[]): Pick<T, K> {
  return Object.fromEntries(
    fields.filter((field) => row[field] !== undefined).map((field) => [field, row[field]]),
  ) as Pick<T, K>;
}
