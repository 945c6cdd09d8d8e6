// Running one workload against one server: a probe request (a non-2xx answer stops the bench with its
// body), the warm-up, then the measured run with the server's CPU time and peak RSS over it.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { cpuMsOf } from "./processes.ts";
import { type Measured, measure, type RequestOptions, settings, summarize } from "./workloads.ts";

export interface Target {
  url: string;
  pid: number;
  /** The server's peak RSS since the last call, in MB (processes.ts `watchMemory`). */
  peakMb?: () => number;
}

/** Checks one request answers 2xx, warms up, then measures. */
export async function runWorkload(
  target: Target,
  workload: { name: string; title: string; writes?: boolean; expect?: (body: any) => string | undefined },
  options: RequestOptions,
): Promise<Measured> {
  const peakMb = target.peakMb ?? (() => 0);
  const body = await probe(target.url, options, workload.name);
  const unlike = workload.expect ? workload.expect(JSON.parse(body)) : undefined;
  if (unlike) console.warn(`  ${workload.name}: the answer is not what its title says: ${unlike}`);
  if (workload.writes) await measure(target.url, options, settings.warmup);
  else if (settings.warmupRequests > 0)
    await measure(target.url, options, { amount: settings.warmupRequests });
  peakMb();
  const cpuBefore = cpuMsOf(target.pid);
  const result = await measure(target.url, options);
  const measured = summarize(
    workload.name,
    workload.title,
    result,
    peakMb(),
    cpuMsOf(target.pid) - cpuBefore,
  );
  const flag =
    measured.errors + measured.non_2xx > 0 ? ` (${measured.errors} errors, ${measured.non_2xx} non-2xx)` : "";
  console.log(
    `  ${workload.title}: ${measured.requests_per_second} req/s, p99 ${measured.latency_p99_ms} ms, ${measured.cpu_ms_per_request} ms CPU/request${flag}`,
  );
  return measured;
}

/** One request as the workload sends it, answering its body; a non-2xx answer stops the bench with the body. */
export async function probe(url: string, options: RequestOptions, name: string): Promise<string> {
  const { request, status, text } = await answer(url, options);
  if (status >= 200 && status < 300) return text;
  throw new Error(`${name}: ${request.method} ${request.path} answered ${status}: ${text.slice(0, 500)}`);
}

/** One request as the workload sends it (its `setupRequest` applied), with the answer's status, headers and body. */
export function answer(
  url: string,
  options: RequestOptions,
): Promise<{ request: any; status: number; headers: IncomingHttpHeaders; text: string }> {
  const { setupRequest, ...base } = options;
  const request = setupRequest ? setupRequest({ ...base }, {}) : base;
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: request.path ?? "/",
        method: request.method,
        headers: request.headers,
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({ request, status: response.statusCode ?? 0, headers: response.headers, text }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}
