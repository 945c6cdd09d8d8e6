// Untrusted templates never starve others: site pages render in worker threads (src/render/render-pool.ts).
// Six pages that run away at once (a `for` and a `tablerow` over three million items) each answer the short
// 500 at their limit of RENDER_LIMIT_MS, while /healthz, another account's REST read and its site page keep
// answering within a second.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RENDER_LIMIT_MS } from "../src/render/render-scope.ts";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let hostile: TestAccount;
let neighbour: TestAccount;
let neighbourApi: Api;

const runaways: Record<string, string> = {
  "for-loop": "{% for i in (1..3000000) %}x{% endfor %}",
  tablerow: "{% tablerow i in (1..3000000) %}{{ i }}{% endtablerow %}",
};

async function pageWithTemplate(client: Api, handle: string, html: string): Promise<void> {
  await expectCreated(client.post("/templates", { template: { handle, html } }));
  await expectCreated(
    client.post("/collections", {
      name: handle,
      handle,
      routing: `${handle}/:handle`,
      template_handle: handle,
      blueprint: { fields: [] },
    }),
  );
  await expectCreated(client.post(`/collections/${handle}/entries`, { handle: "p", title: "Fine page" }));
}

/** /healthz, the neighbour's REST read and its site page, each checked; the milliseconds the three took. */
async function probe(): Promise<number> {
  const started = Date.now();
  const [health, read, page] = await Promise.all([
    request(`${server.url}/healthz`),
    neighbourApi.get("/collections/fine"),
    siteGet(server, "/fine/p", neighbour.domain),
  ]);
  expect(health.body).toEqual({ status: "ok" });
  expect(read.status, read.text.slice(0, 200)).toBe(200);
  expect(read.body.handle).toBe("fine");
  expect(page.text).toContain("<p>Fine page</p>");
  return Date.now() - started;
}

beforeAll(async () => {
  server = await startServer();
  hostile = await createAccount(server, "Hostile");
  neighbour = await createAccount(server, "Neighbour");
  neighbourApi = api(server, neighbour);
  await pageWithTemplate(neighbourApi, "fine", "<p>{{ title }}</p>");
  for (const [handle, html] of Object.entries(runaways))
    await pageWithTemplate(api(server, hostile), handle, html);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("six runaway pages at once", () => {
  it("each answers the short 500 at its limit while other requests are answered within a second", async () => {
    // What a probe costs here, unloaded: the margin the runaways' answers may take past their limit.
    const unloaded = Math.max(await probe(), await probe(), await probe());
    const started = Date.now();
    const pages = Array.from({ length: 6 }, (_, n) => {
      const handle = n % 2 ? "tablerow" : "for-loop";
      return siteGet(server, `/${handle}/p`, hostile.domain).then((shown) => ({
        ...shown,
        handle,
        tookMs: Date.now() - started,
      }));
    });
    let done = false;
    const all = Promise.all(pages).finally(() => {
      done = true;
    });
    const probes: number[] = [];
    while (!done) {
      probes.push(await probe());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const shown of await all) {
      expect(shown.status, `${shown.handle}: ${shown.text.slice(0, 200)}`).toBe(500);
      expect(shown.text).toBe("This page could not be rendered.\n");
      expect(shown.tookMs, shown.handle).toBeGreaterThanOrEqual(RENDER_LIMIT_MS * 0.9);
      expect(shown.tookMs, shown.handle).toBeLessThan(RENDER_LIMIT_MS + 500 + 4 * unloaded);
    }
    // Rendered on the main thread, the six held it: probes waited up to 3 s, the pages ended at 2–3.9 s.
    expect(probes.length).toBeGreaterThan(3);
    expect(Math.max(...probes)).toBeLessThan(1_000);
    // And afterwards, pages render as before.
    await probe();
  });
});
