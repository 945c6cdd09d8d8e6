// A webhook's signing secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64, the
// form the `standardwebhooks` libraries take as is.
import { randomBytes } from "node:crypto";

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}
