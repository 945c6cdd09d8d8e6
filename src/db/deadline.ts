// The request timeout cancels work (REQUEST_TIMEOUT_MS): a request answered 503 must not go on writing.
// Each request's context reaches the database through its own view of the client (`boundedClient`),
// which refuses every operation begun after the request's deadline: no new write starts, and an
// interactive transaction whose work ends after it commits nothing (its callback fails, so Prisma sends
// ROLLBACK, not COMMIT); the request's answer is then a 503 whatever its work returned. An operation
// outside a transaction (one that commits by itself), or a transaction's COMMIT, begun before the deadline
// may still be running when it passes: the 503 waits for it (up to SETTLE_MS), so the write commits before
// the answer or not at all. Background work (webhooks, mail, sweeps, a request's revision prune: `unbounded`)
// uses the client itself and has no deadline.
//
// Why not AsyncLocalStorage down to the driver adapter, as before: on Node 20 an enabled
// AsyncLocalStorage puts a hook on every promise the process makes, and a request makes hundreds.
// Without it a single entry and a create answered 7-8 % more requests a second (docs/performance.md).

/** How long a 503 waits for a COMMIT already sent when the deadline passed. */
export const SETTLE_MS = 5_000;

export class DeadlinePassedError extends Error {
  constructor() {
    super("the request's deadline passed: operation not begun");
  }
}

export class Deadline {
  /** An operation was refused: the request's work was cut short, whatever it answers. */
  refused = false;
  private readonly committing = new Set<Promise<unknown>>();

  constructor(readonly at: number) {}

  /** Whether work may no longer begin; once it may not, the request's work counts as cut short. */
  refuses(): boolean {
    if (Date.now() < this.at) return false;
    this.refused = true;
    return true;
  }

  /** Work that may commit, until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.finally(() => this.committing.delete(settled));
    settled.catch(() => {});
    this.committing.add(settled);
    return work;
  }

  /** Resolves once no tracked work is running, or after `ms`. */
  async settled(ms = SETTLE_MS): Promise<void> {
    let waited = false;
    const limit = new Promise<void>((resolve) =>
      setTimeout(() => {
        waited = true;
        resolve();
      }, ms).unref(),
    );
    // Work tracked meanwhile is waited for too; once the limit has passed, the loop must end (it would
    // otherwise spin on the settled limit and never let the tracked work's I/O run).
    while (this.committing.size > 0 && !waited) {
      await Promise.race([Promise.allSettled(this.committing), limit]);
    }
  }
}

/** Model operations that write: outside a transaction, each commits by itself. */
const WRITES = new Set<PropertyKey>([
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "upsert",
  "delete",
  "deleteMany",
]);
/** Raw statements, any of which may write. */
const RAW = new Set<PropertyKey>([
  "$executeRaw",
  "$executeRawUnsafe",
  "$queryRaw",
  "$queryRawUnsafe",
  "$queryRawTyped",
]);
const UNBOUNDED = Symbol("the client without a deadline");

type AnyFunction = (...args: unknown[]) => unknown;
type Transaction = (work: unknown, options?: unknown) => Promise<unknown>;

/** Which of a client's keys are models (delegates with operations), the same for every client. */
const isModel = new Map<PropertyKey, boolean>();

/**
 * `client` as one request may use it: every model operation and raw statement begun after `deadline` is
 * refused, and so is an interactive transaction (its work gets a view of its own client).
 */
export function boundedClient<T extends object>(client: T, deadline: Deadline): T {
  return view(client, deadline, client, false);
}

/** `root`: the client itself, also behind a transaction's view (whose own client ends with it). */
function view<T extends object>(client: T, deadline: Deadline, root: object, inTransaction: boolean): T {
  const models = new Map<PropertyKey, object>();
  return new Proxy(client, {
    get(target, key) {
      const kept = models.get(key);
      if (kept) return kept;
      if (key === UNBOUNDED) return root;
      const value = Reflect.get(target, key);
      if (key === "$transaction" && !inTransaction) {
        return boundedTransaction(value as Transaction, target, deadline, root);
      }
      if (typeof value === "function") {
        return RAW.has(key)
          ? operation(value as AnyFunction, target, deadline, !inTransaction)
          : value.bind(target);
      }
      let model = isModel.get(key);
      if (model === undefined) {
        model = typeof (value as { findMany?: unknown } | null)?.findMany === "function";
        isModel.set(key, model);
      }
      if (!model) return value;
      const bounded = boundedModel(value as object, deadline, inTransaction);
      models.set(key, bounded);
      return bounded;
    },
  });
}

/** The client behind a request's view: for work that outlives the request. */
export function unbounded<T extends object>(client: T): T {
  return (client as { [UNBOUNDED]?: T })[UNBOUNDED] ?? client;
}

function boundedModel(delegate: object, deadline: Deadline, inTransaction: boolean): object {
  return new Proxy(delegate, {
    get(target, method) {
      const value = Reflect.get(target, method);
      if (typeof value !== "function") return value;
      return operation(value as AnyFunction, target, deadline, !inTransaction && WRITES.has(method));
    },
  });
}

function operation(run: AnyFunction, target: object, deadline: Deadline, commits: boolean): AnyFunction {
  return (...args) => {
    if (deadline.refuses()) return Promise.reject(new DeadlinePassedError());
    const pending = run.apply(target, args);
    return commits ? deadline.track(pending as Promise<unknown>) : pending;
  };
}

/**
 * An interactive transaction begins only before the deadline, its work gets a bounded client, and work that
 * ends after the deadline fails, so that Prisma rolls the transaction back. Once the work has ended
 * in time, Prisma commits: a 503 waits for that.
 */
function boundedTransaction(
  transaction: Transaction,
  target: object,
  deadline: Deadline,
  root: object,
): Transaction {
  return (work, options) => {
    // A bounded write outside a transaction begins as soon as it is made (to be waited for), so it cannot
    // be one of a batch's: the batch form would run it twice.
    if (typeof work !== "function") {
      return Promise.reject(new Error("a request's client runs interactive transactions only"));
    }
    if (deadline.refuses()) return Promise.reject(new DeadlinePassedError());
    const outcome: Promise<unknown> = transaction.call(
      target,
      async (tx: object) => {
        const result = await (work as (tx: object) => Promise<unknown>)(view(tx, deadline, root, true));
        if (deadline.refuses()) throw new DeadlinePassedError();
        deadline.track(outcome);
        return result;
      },
      options,
    );
    return outcome;
  };
}
