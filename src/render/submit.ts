// POST /cms/:handle/submit (also /forms/:handle/submit): a visitor's form post, urlencoded or multipart,
// read as a stream within limits (form-body.ts), with `fields[<handle>]` (plain `<handle>` also
// accepted), handed to the schema's siteFormSubmit with the Referer. Success is a 303 to the redirect
// the schema chose (the posted path, the form's own, a same-site Referer, else `/`); clients that
// accept JSON get {ok, message}. Missing required fields: 422 (the error body; for a browser, the page it
// posted from with the form's errors and values, else a page listing them).
import { type GraphQLSchema, parse } from "graphql";
import { Response } from "../http/fetch-api.ts";
import { publicError } from "../http/public-error.ts";
import { compiledExecute } from "../schema/compiled-execute.ts";
import type { Context } from "../schema/index.ts";
import { readFormBody } from "./form-body.ts";
import { escapeHtml } from "./html.ts";
import { failedSubmissionPage, formStateOf } from "./submit-page.ts";

export const SUBMIT_PATH = /^\/(?:cms|forms)\/([^/]+)\/submit\/?$/;
const control = new Set(["redirect_url", "success_message", "website"]);

const submitMutation = parse(/* GraphQL */ `
  mutation Submit(
    $handle: String!
    $fields: JSON!
    $honeypot: String
    $redirect_url: String
    $success_message: String
    $referer: String
  ) {
    siteFormSubmit(
      handle: $handle
      fields: $fields
      honeypot: $honeypot
      redirect_url: $redirect_url
      success_message: $success_message
      referer: $referer
    ) { saved message redirect_url }
  }
`);

/** Browsers (no JSON wanted) get a plain page for these answers. */
const pageTitles: Record<number, string> = { 422: "Please check the form", 429: "Too many submissions" };

function decodedHandle(handle: string): string {
  try {
    return decodeURIComponent(handle);
  } catch {
    return handle;
  }
}

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });

export async function handleSubmit(
  schema: GraphQLSchema,
  request: Request,
  ctx: Context,
  handle: string,
): Promise<Response> {
  const wantsJson = (request.headers.get("accept") ?? "").includes("application/json");
  let posted: [string, string][];
  try {
    posted = await readFormBody(request);
  } catch (error) {
    const apiError = publicError(error);
    return json({ error: apiError.message, details: apiError.details }, apiError.status);
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of posted) {
    const named = /^fields\[(.+)\]$/.exec(key)?.[1];
    if (named) fields[named] = value;
    else if (!control.has(key)) fields[key] ??= value;
  }
  const postedValue = (name: string) => posted.find(([key]) => key === name)?.[1] ?? null;
  const result = await compiledExecute({
    schema,
    document: submitMutation,
    contextValue: ctx,
    variableValues: {
      handle: decodedHandle(handle),
      fields,
      honeypot: postedValue("website"),
      redirect_url: postedValue("redirect_url"),
      success_message: postedValue("success_message"),
      referer: request.headers.get("referer"),
    },
  });
  const error = result.errors?.[0];
  if (error) {
    const apiError = publicError(error);
    const title = pageTitles[apiError.status];
    if (wantsJson || !title)
      return json({ error: apiError.message, details: apiError.details }, apiError.status);
    if (apiError.status === 422) {
      const state = formStateOf(decodedHandle(handle), apiError, fields);
      const page = await failedSubmissionPage(schema, request, ctx, state);
      if (page) return page;
    }
    const items = apiError.details
      .map((detail) => `<li>${escapeHtml(detail.path)}: ${escapeHtml(detail.message)}</li>`)
      .join("");
    return new Response(`<!doctype html><title>${title}</title><h1>${title}</h1><ul>${items}</ul>\n`, {
      status: apiError.status,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  }
  const answer = result.data?.siteFormSubmit as { message: string; redirect_url: string };
  if (wantsJson) return json({ ok: true, message: answer.message }, 200);
  return new Response(null, { status: 303, headers: { location: headerSafe(answer.redirect_url) } });
}

/** A URL as a header can carry it: non-ASCII characters, spaces and controls percent-encoded (UTF-8). */
function headerSafe(url: string): string {
  return url.replace(/[^\x21-\x7e]/gu, (character) => {
    try {
      return encodeURIComponent(character);
    } catch {
      // An unpaired surrogate: what a browser would send in its place.
      return "%EF%BF%BD";
    }
  });
}
