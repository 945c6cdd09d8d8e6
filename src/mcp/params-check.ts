// A request whose params are not what the protocol says (initialize without params, a cursor that is a
// number, tools/call arguments that are not an object) is the protocol's invalid params (-32602) naming
// what is wrong. The SDK checks params inside its handler wrapper (Protocol.setRequestHandler), where a
// refusal is a thrown ZodError that it answers as an internal error (-32603) with Zod's issue list as the
// message. So the check is made first, with the SDK's own request schemas, on the way in: a wrapper of the
// transport, the one place both transports (HTTP and stdio) hand messages over, before the server sees them.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * The requests createMcpServer answers (initialize and ping are the SDK's own): any other method keeps the
 * SDK's answer, method not found, whatever its params.
 */
const answered = new Map(
  [InitializeRequestSchema, PingRequestSchema, ListToolsRequestSchema, CallToolRequestSchema].map(
    (schema) => [schema.shape.method.value as string, schema] as const,
  ),
);

/** `transport`, answering itself the requests whose params the protocol refuses. */
export function checkingParams(transport: Transport): Transport {
  const checked: Transport = {
    // The server sets its callbacks on this wrapper when it connects, before it starts the transport.
    start() {
      transport.onclose = () => checked.onclose?.();
      transport.onerror = (error) => checked.onerror?.(error);
      transport.onmessage = (message, extra) => {
        const refusal = paramsRefusal(message);
        if (!refusal) return checked.onmessage?.(message, extra);
        transport.send(refusal).catch((error: Error) => checked.onerror?.(error));
      };
      return transport.start();
    },
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
    get sessionId() {
      return transport.sessionId;
    },
    setProtocolVersion: (version) => transport.setProtocolVersion?.(version),
  };
  return checked;
}

function paramsRefusal(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const parsed = answered.get(message.method)?.safeParse(message);
  if (!parsed || parsed.success) return undefined;
  const details = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  const paths = [...new Set(details.map((detail) => detail.path))].join(", ");
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `Invalid ${message.method} params: ${paths}`,
      data: { details },
    },
  };
}
