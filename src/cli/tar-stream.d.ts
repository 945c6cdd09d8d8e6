// The part of tar-stream's API that `cms export` uses, until @types/tar-stream is a dev dependency
// (then delete this file). Matches tar-stream 2 and 3: pack(), entry(header, callback), finalize().
declare module "tar-stream" {
  import type { Readable, Writable } from "node:stream";

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: "file" | "directory";
  }

  export interface Pack extends Readable {
    entry(headers: Headers, callback?: (error?: Error | null) => void): Writable;
    entry(headers: Headers, buffer: string | Buffer, callback?: (error?: Error | null) => void): Writable;
    finalize(): void;
  }

  export function pack(): Pack;
  const tar: { pack: typeof pack };
  export default tar;
}
