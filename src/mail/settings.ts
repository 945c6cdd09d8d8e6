// SMTP settings from the environment (part of src/config.ts's schema): SMTP_URL (smtp://user:pass@host:port,
// or smtps://), unset = no mail; SMTP_FROM, the sender (default "Content Management Service
// <cms@localhost>"); SMTP_RETRY_DELAY_MS, the first retry delay, doubled on each further attempt (default
// 1000; tests make it short).
import { z } from "zod";
import { secretUrl, text, wholeNumber } from "../env-fields.ts";

export interface MailSettings {
  url: string | undefined;
  from: string;
  retryDelayMs: number;
  /** Attempts per message before it is dropped (logged). */
  attempts: number;
}

export const DEFAULT_FROM = "Content Management Service <cms@localhost>";

export const mailVariables = z.object({
  SMTP_URL: secretUrl((url) => /^smtps?:\/\//.test(url), "an smtp:// or smtps:// URL"),
  SMTP_FROM: text(DEFAULT_FROM),
  SMTP_RETRY_DELAY_MS: wholeNumber(1000, 1),
});

export function mailSettings(variables: z.output<typeof mailVariables>): MailSettings {
  return {
    url: variables.SMTP_URL,
    from: variables.SMTP_FROM,
    retryDelayMs: variables.SMTP_RETRY_DELAY_MS,
    attempts: 6,
  };
}
