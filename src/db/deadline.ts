// The request timeout cancels work (REQUEST_TIMEOUT_MS): a request answered 503 must not go on writing.
// Each request runs with a deadline, carried by AsyncLocalStorage down to the driver adapter, which
// then refuses every statement sent after the deadline: no new write starts, and a transaction still
// open when it passes rolls back (its COMMIT is sent as a ROLLBACK, so the connection is released as
// after any transaction; the request's answer is then a 503 whatever its work returned). A COMMIT, or a statement outside a
// transaction (one that commits by itself), sent before the deadline may still be running when it
// passes: the 503 waits for it (up to SETTLE_MS), so the write commits before the answer or not at all.
// Background work (webhooks, mail, sweeps) runs outside any request and has no deadline.
import { AsyncLocalStorage } from "node:async_hooks";

/** How long a 503 waits for a COMMIT already sent when the deadline passed. */
export const SETTLE_MS = 5_000;

export class DeadlinePassedError extends Error {
  constructor() {
    super("the request's deadline passed: statement not sent");
  }
}

export class Deadline {
  /** A statement was refused: the request's work was cut short, whatever it answers. */
  refused = false;
  private readonly committing = new Set<Promise<unknown>>();

  constructor(readonly at: number) {}

  get passed(): boolean {
    return Date.now() >= this.at;
  }

  /** Statements that may commit, until they settle. */
  track<T>(statement: Promise<T>): Promise<T> {
    const settled = statement.finally(() => this.committing.delete(settled));
    settled.catch(() => {});
    this.committing.add(settled);
    return statement;
  }

  /** Resolves once no tracked statement is running, or after `ms`. */
  async settled(ms = SETTLE_MS): Promise<void> {
    const limit = new Promise((resolve) => setTimeout(resolve, ms).unref());
    while (this.committing.size > 0) await Promise.race([Promise.allSettled(this.committing), limit]);
  }
}

const current = new AsyncLocalStorage<Deadline>();

export function withDeadline<T>(deadline: Deadline, work: () => Promise<T>): Promise<T> {
  return current.run(deadline, work);
}

/**
 * Runs `work` without the request's deadline: background work a request starts (a nudged dispatcher, a
 * timer) outlives the request, and timers and callbacks would otherwise inherit its deadline.
 */
export function outsideRequest<T>(work: () => T): T {
  return current.exit(work);
}

type Statement = { sql: string };

interface Queryable {
  queryRaw(query: Statement, ...rest: never[]): Promise<unknown>;
  executeRaw(query: Statement, ...rest: never[]): Promise<unknown>;
}

interface Adapter extends Queryable {
  startTransaction(...args: never[]): Promise<Queryable>;
}

/** Wraps a driver adapter factory so that its connections keep the deadline of the request they run for. */
export function deadlineAdapter<Factory extends { connect(): Promise<unknown> }>(factory: Factory): Factory {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    // A connection (and the timers it starts) belongs to no request.
    const adapter = (await outsideRequest(connect)) as Adapter;
    bounded(adapter, false);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => {
      if (refused()) throw new DeadlinePassedError();
      return bounded(await startTransaction(...args), true);
    };
    return adapter;
  };
  return factory;
}

/** Whether this request's deadline has passed (which marks its work cut short). */
function refused(deadline = current.getStore()): boolean {
  if (!deadline?.passed) return false;
  deadline.refused = true;
  return true;
}

function bounded<T extends Queryable>(target: T, inTransaction: boolean): T {
  for (const method of ["queryRaw", "executeRaw"] as const) {
    const original = target[method].bind(target);
    target[method] = (query: Statement, ...rest: never[]) => {
      const deadline = current.getStore();
      if (!deadline) return original(query, ...rest);
      const sql = query.sql.trimStart().slice(0, 8).toUpperCase();
      if (sql.startsWith("ROLLBACK")) return original(query, ...rest);
      if (refused(deadline)) {
        if (inTransaction && sql.startsWith("COMMIT"))
          return original({ ...query, sql: "ROLLBACK" }, ...rest);
        return Promise.reject(new DeadlinePassedError());
      }
      const commits = !inTransaction || sql.startsWith("COMMIT");
      return commits ? deadline.track(original(query, ...rest)) : original(query, ...rest);
    };
  }
  return target;
}
