// The `templates` section: each layout, template and partial, held to templateCreate's rules (handle,
// title, kind, Liquid that parses), created or updated by handle; one whose title, kind and source are
// as stored is left alone. A created or changed template records a revision.
import { newId, prefixes } from "../ids.ts";
import { templateState } from "../revisions/state.ts";
import { checkInput } from "./input-check.ts";
import { type Revised, recordRevisions } from "./revisions.ts";
import { batches, firstTime, type ImportRun, listOf, tally, type Write } from "./run.ts";

interface TemplateInput {
  handle?: string;
  title?: string;
  kind?: string;
  html: string;
}

export function planTemplates(run: ImportRun, section: unknown): Write {
  const creates: { id: string; handle: string; title: string; kind: string; html: string }[] = [];
  const updates: { id: string; title: string; kind: string; html: string }[] = [];
  const seen = new Set<string>();
  for (const { at, record } of listOf(run, ["templates"], section)) {
    const input = checkInput<TemplateInput>("TemplateCreateInput", record, at, run.problems);
    if (!input) continue;
    if (!input.handle) {
      run.problems.add([...at, "handle"], "is required");
      continue;
    }
    if (!firstTime(run, seen, input.handle, at)) continue;
    const wanted = { title: input.title ?? input.handle, kind: input.kind ?? "template", html: input.html };
    const stored = run.index.templates.get(input.handle);
    if (!stored) {
      const id = newId(prefixes.template);
      creates.push({ id, handle: input.handle, ...wanted });
      run.index.templates.set(input.handle, { id, ...wanted, planned: true });
      tally(run, "templates", "created");
    } else if (stored.title === wanted.title && stored.kind === wanted.kind && stored.html === wanted.html) {
      tally(run, "templates", "unchanged");
    } else {
      updates.push({ id: stored.id, ...wanted });
      tally(run, "templates", "updated");
    }
  }
  return async (tx) => {
    const { now, scope } = run;
    const revised: Revised[] = [];
    for (const chunk of batches(creates)) {
      await tx.template.createMany({
        data: chunk.map((row) => ({ ...scope, ...row, createdAt: now, updatedAt: now })),
      });
    }
    for (const row of creates) {
      const state = templateState({ ...row, createdAt: now, updatedAt: now });
      revised.push({ recordType: "template", recordId: row.id, state, created: true });
    }
    for (const { id, ...changes } of updates) {
      const row = await tx.template.update({ where: { id }, data: { ...changes, updatedAt: now } });
      revised.push({ recordType: "template", recordId: id, state: templateState(row), created: false });
    }
    await recordRevisions(tx, run, revised);
  };
}
