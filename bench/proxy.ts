// A small round-robin TCP proxy for `npm run bench -- --nodes N` (nodes.ts): each new connection goes
// to the next server process of PROXY_BACKENDS (ports on 127.0.0.1), bytes piped both ways, as a load
// balancer in front of several nodes would spread keep-alive connections.
import { connect, createServer } from "node:net";

const backends = (process.env.PROXY_BACKENDS ?? "").split(",").map(Number).filter(Boolean);
if (backends.length === 0) throw new Error("PROXY_BACKENDS: give the backends' ports, comma-separated");
let next = 0;

createServer((client) => {
  const port = backends[next++ % backends.length] as number;
  const upstream = connect(port, "127.0.0.1");
  client.pipe(upstream).pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", close);
  upstream.on("error", close);
  client.on("close", close);
  upstream.on("close", close);
}).listen(Number(process.env.PORT), "127.0.0.1");
