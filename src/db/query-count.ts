// Counting the SQL statements a request makes (CMS_COUNT_QUERIES=1, for tests and benchmarks): the
// driver adapter counts every statement it sends into the counter of the request it runs for, carried
// by AsyncLocalStorage. Off by default: then the adapter is not wrapped at all.
import { AsyncLocalStorage } from "node:async_hooks";
import { environment } from "../config.ts";

interface Counter {
  queries: number;
}

const current = new AsyncLocalStorage<Counter>();

export function queryCountingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  // Read where it is needed (the database client, the GraphQL handler), as the schema in config.ts says.
  return environment.shape.CMS_COUNT_QUERIES.parse(env.CMS_COUNT_QUERIES);
}

/** Runs `work` with a fresh counter and answers its result with the number of statements it sent. */
export async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const counter: Counter = { queries: 0 };
  const result = await current.run(counter, work);
  return { result, queries: counter.queries };
}

type Query = { sql: string; args: unknown[] };

interface Queryable {
  readonly provider: string;
  readonly adapterName: string;
  queryRaw(query: Query): Promise<unknown>;
  executeRaw(query: Query): Promise<number>;
}

interface Transaction extends Queryable {
  readonly options: unknown;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

interface Adapter extends Queryable {
  executeScript(script: string): Promise<void>;
  startTransaction(isolationLevel?: never): Promise<Transaction>;
  dispose(): Promise<void>;
  getConnectionInfo?(): unknown;
}

export interface CountableFactory {
  readonly provider: string;
  readonly adapterName: string;
  connect(): Promise<Adapter>;
}

/**
 * A driver adapter factory whose connections (and their transactions) count statements: wrappers of the
 * adapter's public interface, delegating every call.
 */
export function countingAdapter<F extends CountableFactory>(factory: F): F {
  const wrapped: CountableFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => countingConnection(await factory.connect()),
  };
  return wrapped as F;
}

function countingConnection(adapter: Adapter): Adapter {
  return {
    ...counted(adapter),
    executeScript: (script) => adapter.executeScript(script),
    startTransaction: async (level) => {
      const tx = await adapter.startTransaction(level);
      return {
        ...counted(tx),
        options: tx.options,
        commit: () => tx.commit(),
        rollback: () => tx.rollback(),
      };
    },
    dispose: () => adapter.dispose(),
    ...(adapter.getConnectionInfo && { getConnectionInfo: () => adapter.getConnectionInfo?.() }),
  };
}

function counted(target: Queryable): Queryable {
  const count = () => {
    const counter = current.getStore();
    if (counter) counter.queries += 1;
  };
  return {
    provider: target.provider,
    adapterName: target.adapterName,
    queryRaw: (query) => {
      count();
      return target.queryRaw(query);
    },
    executeRaw: (query) => {
      count();
      return target.executeRaw(query);
    },
  };
}
