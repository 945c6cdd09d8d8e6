// The better-sqlite3 adapter shares one connection between Prisma's transactions and everything else:
// a query issued by another request while a transaction is open would run inside it and vanish with
// its rollback. This wrapper makes other queries wait until the open transaction ends.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";

type Factory = InstanceType<typeof PrismaBetterSQLite3>;
type Adapter = Awaited<ReturnType<Factory["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;

export function serializedSqlite(file: string): Factory {
  prepareFile(file);
  const factory = new PrismaBetterSQLite3({ url: file, timeout: 10_000 });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => serialize(await connect());
  return factory;
}

/** WAL lets the CLI and readers use the file while the server writes; it is a property of the file. */
function prepareFile(file: string): void {
  const db = new Database(file, { timeout: 10_000 });
  db.pragma("journal_mode = WAL");
  db.close();
}

function serialize(adapter: Adapter): Adapter {
  let open: Promise<void> = Promise.resolve();
  const idle = async () => {
    // A transaction may start while we waited for the previous one: wait until none is open.
    for (let current = open; ; current = open) {
      await current;
      if (current === open) return;
    }
  };
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.queryRaw = async (query) => {
    await idle();
    return queryRaw(query);
  };
  adapter.executeRaw = async (query) => {
    await idle();
    return executeRaw(query);
  };
  adapter.startTransaction = async (isolationLevel) => {
    await idle();
    let end = () => {};
    open = new Promise((resolve) => {
      end = resolve;
    });
    const tx: Transaction = await startTransaction(isolationLevel);
    const commit = tx.commit.bind(tx);
    const rollback = tx.rollback.bind(tx);
    tx.commit = async () => {
      await commit();
      end();
    };
    tx.rollback = async () => {
      await rollback();
      end();
    };
    return tx;
  };
  return adapter;
}
