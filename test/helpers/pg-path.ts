// A TCP path to PostgreSQL that a test can disturb: go silent (no reset: a partition, a failed-over host),
// hold what passes and let it through later (a process whose event loop stalled reads its socket late),
// or pass what the database sends late (a far process).
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

export interface PgPath {
  /** The database URL through this path. */
  url: string;
  silence(): void;
  /** Holds everything, both ways, until `release`. */
  hold(): void;
  /** Holds everything once the client has sent `text` (which goes through). */
  holdAfter(text: string): void;
  /** Passes what the database sends `ms` late, in order. */
  slow(ms: number): void;
  release(): void;
  close(): Promise<void>;
}

export async function pgPath(databaseUrl: string): Promise<PgPath> {
  let silent = false;
  let held: (() => void)[] | undefined;
  let holdAfter: string | undefined;
  let lateMs = 0;
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  // Half-open allowed: a connection ended from this side is not closed from the other, as in a partition.
  const proxy = createServer({ allowHalfOpen: true }, (inbound) => {
    const outbound = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    const pass = (to: Socket) => (bytes: Buffer) => {
      if (silent) return;
      if (held) held.push(() => to.write(bytes));
      else if (lateMs > 0 && to === inbound) setTimeout(() => to.write(bytes), lateMs);
      else to.write(bytes);
      if (to === outbound && holdAfter && bytes.includes(holdAfter)) {
        holdAfter = undefined;
        held = [];
      }
    };
    inbound.on("data", pass(outbound));
    outbound.on("data", pass(inbound));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const through = new URL(databaseUrl);
  through.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url: through.toString(),
    silence: () => {
      silent = true;
    },
    hold: () => {
      held = [];
    },
    holdAfter: (text) => {
      holdAfter = text;
    },
    slow: (ms) => {
      lateMs = ms;
    },
    release: () => {
      for (const write of held ?? []) write();
      held = undefined;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
