// SMTP settings from the environment (part of src/config.ts's schema): SMTP_URL (smtp://user:pass@host:port,
// or smtps://), unset = no mail; SMTP_FROM, the sender (default "Content Management Service
// <cms@localhost>"); SMTP_RETRY_DELAY_MS, the first retry delay, doubled on each further attempt (default
// 1000; tests make it short), capped at SMTP_RETRY_MAX_DELAY_MS (default an hour).
import { z } from "zod";
import { secretUrl, text, wholeNumber } from "../env-fields.ts";

export interface MailSettings {
  url: string | undefined;
  from: string;
  retryDelayMs: number;
  /** The longest wait between two attempts. */
  retryMaxDelayMs: number;
  /** Attempts per message before it is marked failed (logged): about a day at the default delay. */
  attempts: number;
}

export const DEFAULT_FROM = "Content Management Service <cms@localhost>";

export const mailVariables = z.object({
  SMTP_URL: secretUrl((url) => /^smtps?:\/\//.test(url), "an smtp:// or smtps:// URL"),
  SMTP_FROM: text(DEFAULT_FROM),
  SMTP_RETRY_DELAY_MS: wholeNumber(1000, 1),
  SMTP_RETRY_MAX_DELAY_MS: wholeNumber(3_600_000, 1),
});

export function mailSettings(variables: z.output<typeof mailVariables>): MailSettings {
  return {
    url: variables.SMTP_URL,
    from: variables.SMTP_FROM,
    retryDelayMs: variables.SMTP_RETRY_DELAY_MS,
    retryMaxDelayMs: variables.SMTP_RETRY_MAX_DELAY_MS,
    attempts: 30,
  };
}
