// POST /cms/:handle/submit (also /forms/:handle/submit): a visitor's form post, urlencoded or multipart,
// with `fields[<handle>]` (plain `<handle>` also accepted), handed to the schema's siteFormSubmit. Success
// is a 303 to the redirect it chose (else the Referer, else `/`); clients that accept JSON get
// {ok, message}. Missing required fields: 422 (the error body, or a page listing them).
import { execute, type GraphQLSchema, parse } from "graphql";
import { toApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { escapeHtml } from "./html.ts";

export const SUBMIT_PATH = /^\/(?:cms|forms)\/([^/]+)\/submit\/?$/;
const MAX_BODY = 2 * 1024 * 1024;
const control = new Set(["redirect_url", "success_message", "website"]);

const submitMutation = parse(/* GraphQL */ `
  mutation Submit($handle: String!, $fields: JSON!, $honeypot: String, $redirect_url: String, $success_message: String) {
    siteFormSubmit(
      handle: $handle
      fields: $fields
      honeypot: $honeypot
      redirect_url: $redirect_url
      success_message: $success_message
    ) { saved message redirect_url }
  }
`);

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : null);

export async function handleSubmit(
  schema: GraphQLSchema,
  request: Request,
  ctx: Context,
  handle: string,
): Promise<Response> {
  const wantsJson = (request.headers.get("accept") ?? "").includes("application/json");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) {
    return json(
      { error: "Request body too large", details: [{ path: "body", message: "must be at most 2 MB" }] },
      413,
    );
  }
  let posted: FormData;
  try {
    posted = await request.formData();
  } catch {
    return json(
      {
        error: "Malformed form body",
        details: [{ path: "body", message: "must be urlencoded or multipart" }],
      },
      400,
    );
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of posted) {
    if (typeof value !== "string") continue;
    const named = /^fields\[(.+)\]$/.exec(key)?.[1];
    if (named) fields[named] = value;
    else if (!control.has(key)) fields[key] ??= value;
  }
  const result = await execute({
    schema,
    document: submitMutation,
    contextValue: ctx,
    variableValues: {
      handle: decodeURIComponent(handle),
      fields,
      honeypot: text(posted.get("website")),
      redirect_url: text(posted.get("redirect_url")),
      success_message: text(posted.get("success_message")),
    },
  });
  const error = result.errors?.[0];
  if (error) {
    const apiError = toApiError(error);
    if (wantsJson || apiError.status !== 422)
      return json({ error: apiError.message, details: apiError.details }, apiError.status);
    const items = apiError.details
      .map((detail) => `<li>${escapeHtml(detail.path)}: ${escapeHtml(detail.message)}</li>`)
      .join("");
    return new Response(
      `<!doctype html><title>Please check the form</title><h1>Please check the form</h1><ul>${items}</ul>\n`,
      {
        status: 422,
        headers: { "content-type": "text/html; charset=utf-8" },
      },
    );
  }
  const answer = result.data?.siteFormSubmit as { message: string; redirect_url: string | null };
  if (wantsJson) return json({ ok: true, message: answer.message }, 200);
  const location = answer.redirect_url ?? request.headers.get("referer") ?? "/";
  return new Response(null, { status: 303, headers: { location } });
}
