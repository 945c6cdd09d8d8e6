// Requests Node's HTTP parser refuses before any handler sees them: headers (the URL among them) past
// 16 KB, malformed request lines, a request timeout. Node answers those with a bare status line; here they
// get the API's error body like every other 4xx.
import { type Server, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

const answers: Record<string, { status: number; error: string; path?: string; message?: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    error: "Request headers too large",
    path: "headers",
    message: "the URL and headers must be at most 16 KB together",
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: "Request timed out" },
};

export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = answers[error.code ?? ""] ?? { status: 400, error: "Malformed HTTP request" };
    const details = answer.path ? [{ path: answer.path, message: answer.message ?? "" }] : [];
    const body = JSON.stringify({ error: answer.error, details });
    // The answer to a HEAD request has no body (the parser's buffer tells the method, when it has one).
    const head = (error as { rawPacket?: Buffer }).rawPacket?.toString("latin1", 0, 5) === "HEAD ";
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? "" : body}`,
    );
  });
}
