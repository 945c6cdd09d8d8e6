// A small REST client bound to one account: paths are relative to /v1/accounts/:account_id.
import type { TestAccount } from "./cli.ts";
import type { TestServer } from "./server.ts";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Api {
  account: TestAccount;
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = any>(path: string): Promise<ApiResponse<T>>;
  /** Any request, with full control: the path is absolute (from the server root). */
  raw(path: string, init?: RequestInit): Promise<ApiResponse>;
}

export async function request(url: string, init: RequestInit = {}): Promise<ApiResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, headers: response.headers, body, text };
}

export function api(server: TestServer, account: TestAccount, token = account.token): Api {
  const base = `${server.url}/v1/accounts/${account.account_id}`;
  const auth = { authorization: `Bearer ${token}` };
  const send = (method: string) => (path: string, body?: unknown) =>
    request(`${base}${path}`, {
      method,
      headers: { ...auth, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    account,
    get: (path) => request(`${base}${path}`, { headers: auth }),
    post: send("POST"),
    put: send("PUT"),
    patch: send("PATCH"),
    delete: (path) => request(`${base}${path}`, { method: "DELETE", headers: auth }),
    raw: (path, init = {}) =>
      request(`${server.url}${path}`, { ...init, headers: { ...auth, ...init.headers } }),
  };
}
