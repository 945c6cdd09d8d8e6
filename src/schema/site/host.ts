// An account's public site is served to requests whose Host (port ignored) is the account's domain.

export interface SiteAccount {
  id: string;
  name: string;
  domain: string;
}

/** `acme.test:3000` -> `acme.test`; `[::1]:80` -> `[::1]`; lowercased, without a trailing dot. */
export function hostName(host: string | null | undefined): string {
  const value = (host ?? "").trim().toLowerCase();
  const name = value.startsWith("[") ? value.slice(0, value.indexOf("]") + 1) : value.replace(/:\d*$/, "");
  return name.replace(/\.$/, "");
}

/**
 * On a host that is no account's domain every path is 404 but `/`, the first address a new user opens:
 * there a landing page (200) says what the server is and points at the APIs.
 */
export function isServiceLandingPath(path: string): boolean {
  return path === "/";
}
