// SMTP settings from the environment: SMTP_URL (smtp://user:pass@host:port, or smtps://), unset = no
// mail; SMTP_FROM, the sender (default "Content Management Service <cms@localhost>"); SMTP_RETRY_DELAY_MS,
// the first retry delay, doubled on each further attempt (default 1000; tests make it short).
export interface MailSettings {
  url: string | undefined;
  from: string;
  retryDelayMs: number;
  /** Attempts per message before it is dropped (logged). */
  attempts: number;
}

export const DEFAULT_FROM = "Content Management Service <cms@localhost>";

export function loadMailSettings(env: NodeJS.ProcessEnv = process.env): MailSettings {
  const url = env.SMTP_URL?.trim() || undefined;
  if (url && !/^smtps?:\/\//.test(url)) throw new Error("SMTP_URL must start with smtp:// or smtps://");
  const delay = env.SMTP_RETRY_DELAY_MS?.trim() ? Number(env.SMTP_RETRY_DELAY_MS) : 1000;
  if (!Number.isSafeInteger(delay) || delay < 1)
    throw new Error("SMTP_RETRY_DELAY_MS must be a whole number >= 1");
  return { url, from: env.SMTP_FROM?.trim() || DEFAULT_FROM, retryDelayMs: delay, attempts: 6 };
}
