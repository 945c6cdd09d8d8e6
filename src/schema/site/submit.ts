// A visitor's form submission (decisions.md, "Site rendering"): stored as an unpublished entry of the
// form's collection with the form's blueprint, named entry_<unix seconds>_<8 hex> and titled
// "<form title> - <Month DD, YYYY at HH:MM AM/PM>". Required fields are enforced (nothing saved on a
// 422); a filled honeypot, or spam when the check is on, is answered as a success and never saved.
import { randomBytes } from "node:crypto";
import { readFields } from "../blueprints/fields.ts";
import { usesDate } from "../collections/routing.ts";
import type { Context } from "../context.ts";
import { insertEntry } from "../entries/save.ts";
import { normalizeValues } from "../entries/values.ts";
import { ApiError, Problems } from "../errors.ts";
import { formFieldsOf } from "../forms/form-fields.ts";
import { submissionMails } from "../forms/notify.ts";
import { enqueueMail } from "../mail/enqueue.ts";
import { isReferenceGone } from "../prisma-errors.ts";
import type { Tx } from "../webhooks/outbox.ts";
import { hostName } from "./host.ts";
import { countSubmission, looksLikeSpam } from "./spam.ts";

/**
 * What the form's own hidden inputs may ask for (form_for writes them; a visitor can change them), and
 * the page the post came from (its Referer header, as the browser or anyone else sent it).
 */
export interface PostedAnswer {
  redirect_url?: string | null;
  success_message?: string | null;
  referer?: string | null;
}

/** A posted redirect is followed only to a path on the same site: no open redirects. */
function sameSitePath(url: string | null | undefined): string | null {
  return url && /^\/(?![/\\])/.test(url) && !hasControlCharacters(url) ? url : null;
}

/**
 * The Referer, followed only when it is a page of this site (its host is the site's domain, any port):
 * a post sent from elsewhere, or with a forged header, is never redirected off the site.
 */
function sameSiteReferer(referer: string | null | undefined, domain: string): string | null {
  if (!referer || !URL.canParse(referer)) return null;
  const url = new URL(referer);
  if (!["http:", "https:"].includes(url.protocol) || hostName(url.host) !== hostName(domain)) return null;
  url.username = "";
  url.password = "";
  url.hash = "";
  return url.href;
}

/** Browsers drop tabs and newlines from URLs, which would make `/\t/host` the other host `//host`. */
function hasControlCharacters(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export interface SubmissionResult {
  saved: boolean;
  message: string;
  /** Where the visitor goes next: the posted path, else the form's own, else a same-site Referer, else `/`. */
  redirect_url: string;
}

/** Form posts are text: numbers and checkboxes become their types, empty inputs mean "not given". */
function fromFormText(type: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (value.trim() === "") return undefined;
  if (type === "number") return Number.isFinite(Number(value)) ? Number(value) : value;
  if (type === "toggle") return ["on", "true", "1", "yes"].includes(value.toLowerCase());
  return value;
}

const stamp = (date: Date) =>
  `${date.toLocaleString("en-US", { month: "long", day: "2-digit", year: "numeric", timeZone: "UTC" })} at ${date.toLocaleString("en-US", { hour: "2-digit", minute: "2-digit", hour12: true, timeZone: "UTC" })}`;

export async function submitForm(
  ctx: Context,
  handle: string,
  sent: Record<string, unknown>,
  honeypot: string | null | undefined,
  posted: PostedAnswer = {},
): Promise<SubmissionResult> {
  const site = await ctx.site();
  if (!site) throw ApiError.notFound("Site");
  const scope = { accountId: site.id };
  const form = await ctx.db.form.findFirst({
    where: { ...scope, handle },
    include: { collection: true, blueprint: { select: { id: true, fields: true } } },
  });
  // Read in several statements: a form deleted with its collection between them comes without it.
  if (!form?.collection || !form.blueprint) throw ApiError.notFound("Form");
  const answer = {
    message: posted.success_message || form.successMessage || "Thank you for your submission!",
    redirect_url:
      sameSitePath(posted.redirect_url) ??
      form.redirectUrl ??
      sameSiteReferer(posted.referer, site.domain) ??
      "/",
  };
  if (form.honeypotEnabled && honeypot) return { saved: false, ...answer };

  const fields = readFields(form.blueprint.fields);
  const problems = new Problems();
  const values: Record<string, unknown> = {};
  for (const field of formFieldsOf(fields)) {
    const value = fromFormText(field.type, sent[field.handle]);
    if (value !== undefined) values[field.handle] = value;
    else if (field.required) problems.add(field.handle, "is required");
  }
  problems.throwIfAny();
  if (form.spamCheckEnabled) await countSubmission(ctx, form.id);
  if (form.spamCheckEnabled && looksLikeSpam(values)) return { saved: false, ...answer };

  const lookup = { ctx, scope, ownCollectionId: form.collectionId };
  const normalized = await normalizeValues(fields, values, lookup, problems);
  problems.throwIfAny();
  const now = new Date();
  const input = {
    handle: `entry_${Math.floor(now.getTime() / 1000)}_${randomBytes(4).toString("hex")}`,
    title: `${form.title} - ${stamp(now)}`,
    published: false,
    published_at: usesDate(form.collection.routing) ? now : null,
  };
  const blueprint = { id: form.blueprint.id, fields };
  const mails = ctx.outbox.enabled ? submissionMails(form, fields, values, input.handle) : [];
  // The notifications are written with the entry: a submission acknowledged is a notification owed.
  const notify =
    mails.length > 0
      ? (tx: Tx, entryId: string) =>
          enqueueMail(ctx, tx, { ...scope, id: entryId, domain: hostName(site.domain) }, mails)
      : undefined;
  try {
    await insertEntry(
      ctx,
      scope,
      form.collection,
      input,
      { blueprint, ...normalized },
      {},
      {},
      ["form.submitted"],
      notify,
    );
  } catch (error) {
    // The collection was deleted since the form was read, and the form with it.
    if (isReferenceGone(error)) throw ApiError.notFound("Form");
    throw error;
  }
  return { saved: true, ...answer };
}
