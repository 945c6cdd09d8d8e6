// A webhook receiver on loopback for the webhook tests: it keeps every request it got, answers as the test
// says (a status, headers, a delay), and verifies signatures with the `standardwebhooks` package.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  /** The `webhook-id` header. */
  id: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** What the receiver answered. */
  status: number;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface Receiver {
  port: number;
  url(path?: string): string;
  /** Every request, in arrival order. */
  got: Received[];
  /** How a request is answered; 200 by default. */
  answer: (request: Omit<Received, "status">) => Answer;
  /** Waits until `match` holds for at least `count` requests that were answered 2xx; those requests. */
  waitFor(match: (got: Received) => boolean, count?: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

const ok = (got: Received) => got.status >= 200 && got.status < 300;

export async function startReceiver(port = 0): Promise<Receiver> {
  const receiver: Receiver = {
    port: 0,
    url: (path = "/hook") => `http://127.0.0.1:${receiver.port}${path}`,
    got: [],
    answer: () => ({}),
    async waitFor(match, count = 1, timeoutMs = 15_000) {
      return waitUntil(
        () => {
          const found = receiver.got.filter((got) => ok(got) && match(got));
          return found.length >= count ? found : undefined;
        },
        timeoutMs,
        () => `${count} matching deliveries; got ${JSON.stringify(receiver.got.map(summary))}`,
      );
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {}
      const request = {
        id: String(req.headers["webhook-id"] ?? ""),
        path: req.url ?? "",
        headers: req.headers,
        body,
        json,
        at: Date.now(),
      };
      const { status = 200, headers = {}, delayMs = 0 } = receiver.answer(request);
      const reply = () => {
        receiver.got.push({ ...request, status });
        res.writeHead(status, headers).end(status >= 300 ? `answer ${status}` : "ok");
      };
      if (delayMs > 0) setTimeout(reply, delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

const summary = (got: Received) => `${got.status} ${got.id} ${got.json?.type} ${got.json?.data?.id}`;

/** A loopback port nothing listens on (a receiver that is down). */
export async function freePort(): Promise<number> {
  const probe = await startReceiver();
  await probe.close();
  return probe.port;
}

/** True when the request's signature verifies with `secret` (Standard Webhooks, the package's verifier). */
export function verifies(secret: string, got: Received): boolean {
  try {
    new Webhook(secret).verify(got.body, {
      "webhook-id": String(got.headers["webhook-id"]),
      "webhook-timestamp": String(got.headers["webhook-timestamp"]),
      "webhook-signature": String(got.headers["webhook-signature"]),
    });
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 50 ms until it returns a value; fails with `describe()` after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 15_000,
  describe: () => string = () => "a condition",
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
