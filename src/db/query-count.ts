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

interface Queryable {
  queryRaw(...args: never[]): Promise<unknown>;
  executeRaw(...args: never[]): Promise<unknown>;
}

interface Adapter extends Queryable {
  startTransaction(...args: never[]): Promise<Queryable>;
}

/** Wraps a driver adapter factory so that its connections (and their transactions) count statements. */
export function countingAdapter<Factory extends { connect(): Promise<unknown> }>(factory: Factory): Factory {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = (await connect()) as Adapter;
    counted(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => counted(await startTransaction(...args));
    return adapter;
  };
  return factory;
}

function counted<T extends Queryable>(target: T): T {
  for (const method of ["queryRaw", "executeRaw"] as const) {
    const original = target[method].bind(target);
    target[method] = (...args: never[]) => {
      const counter = current.getStore();
      if (counter) counter.queries += 1;
      return original(...args);
    };
  }
  return target;
}
