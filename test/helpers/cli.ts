// Runs the `cms` CLI against a test server's database.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { builtOrSource, type TestServer } from "./server.ts";

const root = new URL("../..", import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` is added to the server's environment (e.g. another CMS_DATA_DIR, an empty DATABASE_URL). */
export function cms(server: TestServer, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...builtOrSource("cms"), ...args], {
      cwd: root,
      env: { ...server.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

export interface TestAccount {
  account_id: string;
  token: string;
  domain: string;
}

export async function createAccount(server: TestServer, name = "Test"): Promise<TestAccount> {
  const domain = `${randomBytes(5).toString("hex")}.test`;
  const result = await cms(server, ["account", "create", "--name", name, "--domain", domain, "--json"]);
  if (result.code !== 0) throw new Error(`account create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as TestAccount;
}
