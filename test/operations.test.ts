// Operations: one JSON log line per request (with X-Request-Id, never a token or body), graceful
// shutdown on SIGTERM, and read-scoped tokens refused on GraphQL mutations.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, request } from "./helpers/api.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server);
});

afterAll(async () => {
  await server?.stop();
});

interface RequestLine {
  level: string;
  msg: string;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  time: string;
}

function requestLines(output: string[]): RequestLine[] {
  return output.flatMap((line) => {
    try {
      const parsed = JSON.parse(line);
      return parsed.msg === "request" ? [parsed as RequestLine] : [];
    } catch {
      return [];
    }
  });
}

async function logLine(target: TestServer, id: string): Promise<RequestLine> {
  for (let i = 0; i < 50; i++) {
    const line = requestLines(target.output).find((entry) => entry.request_id === id);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no log line for ${id}:\n${target.output.join("\n")}`);
}

describe("request logs", () => {
  it("logs one JSON line per request with the X-Request-Id it answers", async () => {
    const secret = "body-secret-value-1234";
    const client = api(server, account);
    const created = await client.post("/collections?token=query-secret", {
      name: secret,
      handle: "logged",
      routing: "logged/:handle",
    });
    expect(created.status, created.text).toBe(201);
    const id = created.headers.get("x-request-id") ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = await logLine(server, id);
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      method: "POST",
      path: `/v1/accounts/${account.account_id}/collections`,
      status: 201,
    });
    expect(typeof line.duration_ms).toBe("number");
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(line.time))).toBe(false);

    const all = server.output.join("\n");
    for (const forbidden of [account.token, secret, "query-secret", "Bearer", "authorization"]) {
      expect(all, forbidden).not.toContain(forbidden);
    }
  });

  it("gives every request its own ID, logs errors and unauthenticated requests too", async () => {
    const ids = new Set<string>();
    for (const [path, status] of [
      ["/healthz", 200],
      ["/v1/accounts/acct_x/collections", 401],
      ["/nowhere", 404],
    ] as const) {
      const response = await request(`${server.url}${path}`);
      expect(response.status).toBe(status);
      const id = response.headers.get("x-request-id") ?? "";
      ids.add(id);
      const line = await logLine(server, id);
      expect(line).toMatchObject({ method: "GET", path, status });
    }
    expect(ids.size).toBe(3);
  });

  it("keeps a client's plain X-Request-Id and replaces an unusable one", async () => {
    const kept = await request(`${server.url}/healthz`, { headers: { "x-request-id": "trace-abc.123" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-abc.123");
    await logLine(server, "trace-abc.123");
    const replaced = await request(`${server.url}/healthz`, { headers: { "x-request-id": "bad id\u00e9" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs GraphQL requests without the token", async () => {
    const response = await request(`${server.url}/graphql?op=x`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(response.status).toBe(200);
    const line = await logLine(server, response.headers.get("x-request-id") ?? "");
    expect(line).toMatchObject({ method: "POST", path: "/graphql", status: 200 });
    expect(server.output.join("\n")).not.toContain(account.token);
  });
});

describe("read-scoped tokens over GraphQL", () => {
  it("answers a mutation with 403 FORBIDDEN and changes nothing, while queries work", async () => {
    const created = await cms(server, [
      "token",
      "create",
      "--account",
      account.account_id,
      "--scope",
      "read",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const readToken = JSON.parse(created.stdout).token as string;
    const graphql = (query: string, accept = "application/json") =>
      request(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", accept, authorization: `Bearer ${readToken}` },
        body: JSON.stringify({ query }),
      });
    const create = `mutation { collectionCreate(account_id: "${account.account_id}", input: { name: "R", handle: "read-only", routing: "r/:handle" }) { created } }`;
    for (const [accept, status] of [
      ["application/json", 200],
      ["application/graphql-response+json", 403],
    ] as const) {
      const mutation = await graphql(create, accept);
      // The error's HTTP status (403) in the type that allows it; `application/json` answers 200 (GraphQL
      // over HTTP, test/graphql-over-http.test.ts).
      expect(mutation.status, mutation.text).toBe(status);
      expect(mutation.headers.get("content-type")).toBe(`${accept}; charset=utf-8`);
      expect(mutation.body).toMatchObject({
        data: null,
        errors: [{ message: "This token may only read", extensions: { code: "FORBIDDEN" } }],
      });
    }
    const query = await graphql(`{ collections(account_id: "${account.account_id}") { data { handle } } }`);
    expect(query.status, query.text).toBe(200);
    expect(query.body.errors, query.text).toBeUndefined();
    expect(query.body.data.collections.data.map((c: { handle: string }) => c.handle)).not.toContain(
      "read-only",
    );
  });
});

describe("graceful shutdown", () => {
  it("finishes an in-flight request after SIGTERM, refuses new connections, and exits 0", async () => {
    const target = await startServer();
    try {
      const owner = await createAccount(target);
      const body = JSON.stringify({ name: "Slow", handle: "slow", routing: "slow/:handle" });
      const { port } = new URL(target.url);
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path: `/v1/accounts/${owner.account_id}/collections`,
            headers: {
              authorization: `Bearer ${owner.token}`,
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk) => (text += chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on("error", reject);
        // Half the body now, the rest after SIGTERM.
        req.write(body.slice(0, 10));
        setTimeout(() => {
          target.child.kill("SIGTERM");
          setTimeout(async () => {
            await expect(fetch(`${target.url}/healthz`)).rejects.toThrow();
            req.end(body.slice(10));
          }, 500);
        }, 500);
      });
      const { status, body: text } = await answer;
      const answered = Date.now();
      expect(status, text).toBe(201);
      expect(JSON.parse(text).handle).toBe("slow");
      expect(await target.exited).toBe(0);
      // Promptly: not after the kept-alive connection times out, nor at the 10 s deadline.
      expect(Date.now() - answered).toBeLessThan(3000);
      const lines = target.output.join("\n");
      expect(lines).toContain('"msg":"shutting down"');
      expect(requestLines(target.output).some((line) => line.method === "POST" && line.status === 201)).toBe(
        true,
      );
    } finally {
      await target.stop();
    }
  });
});
