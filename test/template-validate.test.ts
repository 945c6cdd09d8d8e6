// templateValidate over /graphql: a Liquid source checked as a template save checks it (the
// CMS's own tags included), with every syntax error reported by line, not only the first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expect422 } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
let readToken: string;

const validateQuery = `query ($account: ID!, $html: String!) {
  templateValidate(account_id: $account, html: $html) { valid errors { line column message } }
}`;

function validate(html: string, token = readToken) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: validateQuery, variables: { account: account.account_id, html } }),
  });
}

function validation(response: ApiResponse) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data.templateValidate;
}

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server);
  client = api(server, account);
  const read = await cms(server, [
    "token",
    "create",
    "--account",
    account.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  readToken = JSON.parse(read.stdout).token;
});

afterAll(async () => {
  await server?.stop();
});

describe("templateValidate", () => {
  it("finds nothing wrong with valid Liquid, the CMS's own tags included (a read token is enough)", async () => {
    const html = [
      "<main>",
      "{% if page.title %}<h1>{{ page.title | upcase }}</h1>{% endif %}",
      "{% form_for 'contact' %}<input name=email>{% endform_for %}",
      "{% cms_scripts %}",
      "</main>",
    ].join("\n");
    expect(validation(await validate(html))).toEqual({ valid: true, errors: [] });
  });

  it("reports each of two separate errors with its line, where a save names only the first", async () => {
    const html = [
      "<main>",
      "{% if page.title %}",
      "<p>one</p>",
      "<p>two</p>",
      "{% no_such_tag %}",
      "</main>",
    ].join("\n");
    expect(validation(await validate(html))).toEqual({
      valid: false,
      errors: [
        { line: 2, column: 1, message: "tag {% if page.title %} not closed" },
        { line: 5, column: 1, message: 'tag "no_such_tag" not found' },
      ],
    });
    // The save uses the same checker: it refuses the source.
    expect422(await client.post("/templates", { handle: "two-errors", html }), "html");
  });

  it("reports an unclosed output and a bad tag after it", async () => {
    const html = "<p>\n{{ page.title\n</p>\n{% assign x = %}\n";
    const result = validation(await validate(html));
    expect(result.valid).toBe(false);
    expect(result.errors.map((error: { line: number }) => error.line)).toEqual([2, 4]);
    expect(result.errors[0].message).toMatch(/^output "\{\{ page\.title/);
    expect(result.errors[1]).toEqual({ line: 4, column: 14, message: 'invalid value expression: ""' });
  });

  it("reports an unclosed {% form_for %}", async () => {
    const html = "<section>\n  {% form_for 'contact' %}\n  <input name=email>\n</section>";
    expect(validation(await validate(html))).toEqual({
      valid: false,
      errors: [{ line: 2, column: 3, message: "tag {% form_for 'contact' %} not closed" }],
    });
  });

  it("stops at 20 errors, in line order", async () => {
    const html = Array.from({ length: 30 }, (_, i) => `{% bad_tag_${i + 1} %}`).join("\n");
    const { valid, errors } = validation(await validate(html));
    expect(valid).toBe(false);
    expect(errors).toHaveLength(20);
    expect(errors.map((error: { line: number }) => error.line)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(errors[19].message).toBe('tag "bad_tag_20" not found');
  });

  it("keeps a message short when the parser quotes the rest of the source", async () => {
    const html = `{{ unclosed\n${"<p>text</p>\n".repeat(2000)}`;
    const { errors } = validation(await validate(html));
    expect(errors).toHaveLength(1);
    expect(errors[0].line).toBe(1);
    expect(errors[0].message.length).toBeLessThanOrEqual(301);
  });

  it("refuses a source larger than a template may be (422 on html)", async () => {
    const response = await validate("x".repeat(1024 * 1024 + 1));
    expect(response.status, response.text.slice(0, 500)).toBe(422);
    expect(response.body.data ?? null).toBeNull();
    const details = response.body.errors[0].extensions.details;
    expect(details).toEqual([{ path: "html", message: "must be at most 1 MB" }]);
  });

  it("refuses another account's token (403) and a missing one (401)", async () => {
    const other = await createAccount(server, "Other");
    const foreign = await validate("<p>fine</p>", other.token);
    expect(foreign.status, foreign.text).toBe(403);
    expect(foreign.body.errors[0].extensions.code).toBe("FORBIDDEN");
    expect(foreign.body.data ?? null).toBeNull();
    const anonymous = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: validateQuery, variables: { account: account.account_id, html: "x" } }),
    });
    expect(anonymous.status, anonymous.text).toBe(401);
  });
});
