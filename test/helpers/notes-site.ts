// A one-page site: template `note` (the title in a paragraph), collection `notes` routed at
// `/notes/:handle`, and the entry `hello` titled "Hello", so `/notes/hello` renders `<p>Hello</p>`.
import type { Api } from "./api.ts";
import { expectCreated } from "./assertions.ts";

export async function seedNotesSite(client: Api): Promise<void> {
  await expectCreated(
    client.post("/templates", { template: { handle: "note", html: "<p>{{ title }}</p>" } }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Notes",
      handle: "notes",
      routing: "notes/:handle",
      template_handle: "note",
      blueprint: { fields: [] },
    }),
  );
  await expectCreated(client.post("/collections/notes/entries", { handle: "hello", title: "Hello" }));
}
