// A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL), that a test stops and starts: stopped, it
// closes every connection through it and refuses new ones, as a database server that went away does.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  /** Closes every connection and stops listening (new connections are refused). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      listening.once("error", reject);
      listening.listen(port, "127.0.0.1", () => {
        const address = listening.address();
        if (address && typeof address === "object") port = address.port;
        server = listening;
        resolve();
      });
    });
  const stop = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    stop,
    start: listen,
    close: stop,
  };
}
