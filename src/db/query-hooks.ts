// What runs around the client's queries (the text guard, the deep entry pages of entry-reads.ts), as a Proxy
// over the client's public API rather than Prisma's query extensions (`$extends`): an extended client runs
// every operation of a model with a hook through its extension chain, which copies the arguments and
// wraps the call in promises. Two such extensions cost 12 % of an uncached single-entry read's CPU and 5 %
// of a create's (measured side by side on one build, November 2026); this costs a property lookup and a call.
//
// As with Prisma's own, an operation that is checked or replaced here starts when it is awaited, not when
// it is called, and a refused one rejects only then: one made and never awaited fails no one.

type Args = Record<string, unknown> | undefined;
type Operation = (args: Args) => PromiseLike<unknown>;

export interface QueryHooks {
  /** Before every model operation and raw statement, with its arguments: an error refuses it. */
  check(args: unknown): Error | undefined;
  /** Operations run instead, by model and operation: `run` is the operation itself, on the same client. */
  replace: Record<string, Record<string, (args: Args, run: Operation) => Promise<unknown>>>;
}

/** The raw statements: their arguments are the SQL and its values. */
const RAW = new Set<PropertyKey>([
  "$queryRaw",
  "$executeRaw",
  "$queryRawUnsafe",
  "$executeRawUnsafe",
  "$queryRawTyped",
]);

export function withQueryHooks<T extends object>(client: T, hooks: QueryHooks): T {
  const members = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, key) {
      if (members.has(key)) return members.get(key);
      const value = Reflect.get(target, key);
      const member = memberOf(target, key, value, hooks);
      // Models and methods are the same objects on every read of one client: each is wrapped once.
      if (typeof value === "function" || isModel(value)) members.set(key, member);
      return member;
    },
  });
}

function memberOf(target: object, key: PropertyKey, value: unknown, hooks: QueryHooks): unknown {
  if (key === "$transaction" && typeof value === "function")
    return transactionOf(target, value as AnyFunction, hooks);
  if (RAW.has(key)) {
    const run = value as AnyFunction;
    return (...args: unknown[]) => {
      const refused = hooks.check(args.length === 1 ? args[0] : args);
      return refused ? lazy(() => Promise.reject(refused)) : run.apply(target, args);
    };
  }
  if (typeof value === "function") return value.bind(target);
  if (isModel(value)) return modelOf(value, hooks.replace[String(key)] ?? {}, hooks);
  return value;
}

type AnyFunction = (...args: unknown[]) => unknown;

const isModel = (value: unknown): value is Record<string, unknown> =>
  typeof (value as { findMany?: unknown } | null)?.findMany === "function";

function modelOf(
  delegate: Record<string, unknown>,
  replaced: QueryHooks["replace"][string],
  hooks: QueryHooks,
): object {
  const operations = new Map<PropertyKey, unknown>();
  return new Proxy(delegate, {
    get(target, key) {
      if (operations.has(key)) return operations.get(key);
      const value = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      const run = (args: Args) => value.call(target, args) as PromiseLike<unknown>;
      const replacement = replaced[String(key)];
      const operation = (args: Args) => {
        const refused = hooks.check(args);
        if (refused) return lazy(() => Promise.reject(refused));
        return replacement ? lazy(() => replacement(args, run)) : run(args);
      };
      operations.set(key, operation);
      return operation;
    },
  });
}

/** Interactive transactions get the hooks on their own client; batches run as they are. */
function transactionOf(target: object, transaction: AnyFunction, hooks: QueryHooks) {
  return (input: unknown, ...rest: unknown[]) =>
    typeof input === "function"
      ? transaction.call(target, (tx: object) => input(withQueryHooks(tx, hooks)), ...rest)
      : transaction.call(target, input, ...rest);
}

/** A promise of `start()` that starts on its first `then`, as Prisma's own do. */
function lazy<T>(start: () => Promise<T>): Promise<T> {
  let started: Promise<T> | undefined;
  const run = () => (started ??= start());
  return {
    // biome-ignore lint/suspicious/noThenProperty: a promise of its own, as Prisma's operations are.
    then: (resolved, rejected) => run().then(resolved, rejected),
    catch: (rejected) => run().catch(rejected),
    finally: (settled) => run().finally(settled),
    [Symbol.toStringTag]: "LazyPromise",
  } as Promise<T>;
}
