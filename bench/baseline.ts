// The baseline: a bare node:http server answering the bench's single-entry read
// (GET /v1/accounts/:account_id/collections/:collection/entries/:handle) with one hand-written SQL
// query on the same database, no framework, no token check. What the CMS costs is its ratio to this.
//   BASELINE_DATABASE: the embedded database file, or a postgresql:// URL.
import { createServer, type ServerResponse } from "node:http";
import Database from "better-sqlite3";
import pg from "pg";

const target = process.env.BASELINE_DATABASE ?? "";
const route = /^\/v1\/accounts\/([^/]+)\/collections\/([^/]+)\/entries\/([^/?]+)$/;

type Row = Record<string, unknown> & { data: unknown };
type Read = (accountId: string, collection: string, handle: string) => Promise<Row | undefined>;

function sqliteRead(file: string): Read {
  const db = new Database(file, { readonly: true });
  const statement = db.prepare(
    `SELECT e.*, c."handle" AS "collectionHandle" FROM "Entry" e JOIN "Collection" c ON c."id" = e."collectionId"
     WHERE e."accountId" = ? AND c."accountId" = ? AND c."handle" = ? AND e."handle" = ?`,
  );
  return async (accountId, collection, handle) => {
    const row = statement.get(accountId, accountId, collection, handle) as Row | undefined;
    return row && { ...row, data: JSON.parse(row.data as string) };
  };
}

function postgresRead(url: string): Read {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (accountId, collection, handle) => {
    const result = await pool.query({
      name: "entry",
      text: `SELECT e.*, c."handle" AS "collectionHandle" FROM "Entry" e JOIN "Collection" c ON c."id" = e."collectionId"
             WHERE e."accountId" = $1 AND c."accountId" = $1 AND c."handle" = $2 AND e."handle" = $3`,
      values: [accountId, collection, handle],
    });
    return result.rows[0] as Row | undefined;
  };
}

const read = /^postgres(ql)?:\/\//.test(target) ? postgresRead(target) : sqliteRead(target);

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

createServer((request, response) => {
  if (request.url === "/healthz") return send(response, 200, { status: "ok" });
  const match = route.exec(request.url ?? "");
  if (!match) return send(response, 404, { error: "Not found", details: [] });
  const [, accountId = "", collection = "", handle = ""] = match.map((part) => decodeURIComponent(part));
  read(accountId, collection, handle).then(
    (row) =>
      row ? send(response, 200, row) : send(response, 404, { error: "Entry not found", details: [] }),
    (error: Error) => send(response, 500, { error: error.message, details: [] }),
  );
}).listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? "127.0.0.1");
