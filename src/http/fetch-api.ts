// The Request and Response classes the HTTP server adapter (@whatwg-node/server) itself uses. Node's
// own (undici) carry their bodies as web streams, which the adapter pumps chunk by chunk; these keep a
// string body as a string and the adapter writes it in one call, with its headers, at a fraction of the
// cost. Everything the application answers is built with these.
export { Request, Response } from "@whatwg-node/fetch";
