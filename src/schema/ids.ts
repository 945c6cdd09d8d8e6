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
  for (const byte of randomBytes(16)) tail += alphabet[byte % 32];
  return prefix + head + tail;
}
