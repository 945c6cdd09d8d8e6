// A value that one read has at once and another must wait for: an account's lookups, once read in a
// request, are there for its later rows. Returned as is, GraphQL waits only when it is a promise, and a
// list of 20 entries makes no promise per row to name their blueprints and collections.
export type Eventually<T> = T | Promise<T>;

/**
 * `then(value)`: at once when `value` is already there, else when it comes. Any thenable waits: Prisma's
 * queries are thenables, not instances of Promise.
 */
export function whenReady<T, R>(value: Eventually<T>, then: (value: T) => R): R | Promise<Awaited<R>> {
  return isThenable(value) ? (Promise.resolve(value).then(then) as Promise<Awaited<R>>) : then(value);
}

function isThenable<T>(value: Eventually<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
