// Prefix IDs (content-api.md, "Conventions"): a resource prefix, then 10 characters of time and 16 of
// randomness in lowercase base32, so IDs sort by creation and index inserts stay local.
import { randomBytes } from "node:crypto";

export const prefixes = {
  account: "acct_",
  token: "tok_",
  collection: "clctn_",
  entry: "cnety_",
  blueprint: "blprt_",
  navigation: "nav_",
  navigationItem: "ni_",
  form: "form_",
  global: "stgbl_",
  asset: "acass_",
  template: "tmplt_",
  trashItem: "trash_",
  revision: "rev_",
  webhook: "whk_",
  /** A webhook delivery: its ID is the Standard Webhooks message ID (`webhook-id`). */
  delivery: "msg_",
  /** A form notification to one address (its Message-ID header is made from the submission). */
  mail: "mail_",
  /** An import answered 202 (import/jobs.ts). */
  importJob: "impjb_",
} as const;

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
const idBody = /^[0-9a-hjkmnp-tv-z]{26}$/;

/**
 * Whether `value` has the exact shape of an ID with `prefix` (the prefix, then 26 characters of the
 * alphabet): only such a value is looked up as an ID, so `nav_main` stays a valid navigation handle.
 */
export function isIdOf(value: string, prefix: string): boolean {
  return value.startsWith(prefix) && idBody.test(value.slice(prefix.length));
}

export function newId(prefix: string): string {
  let time = Date.now();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = alphabet[time % 32] + head;
    time = Math.floor(time / 32);
  }
  let tail = "";
  const bytes = randomTail();
  for (let i = 0; i < TAIL_BYTES; i++) tail += alphabet[(bytes[i] as number) % 32];
  return prefix + head + tail;
}

const TAIL_BYTES = 16;
/** Random bytes are drawn this many IDs at a time: one randomBytes call per ID cost a bulk import ~5 µs an ID. */
const POOLED_IDS = 256;
let pool = Buffer.alloc(0);
let used = 0;

/** The next 16 unused bytes of the pool (never handed out twice), refilled from the CSPRNG when spent. */
function randomTail(): Buffer {
  if (used + TAIL_BYTES > pool.length) {
    pool = randomBytes(TAIL_BYTES * POOLED_IDS);
    used = 0;
  }
  used += TAIL_BYTES;
  return pool.subarray(used - TAIL_BYTES, used);
}
