// Files of an installed npm package served over HTTP (the REST reference's Swagger UI), so an explorer
// works on a machine with no internet. Only the files named in the code are served, each under a URL
// holding the package's version: they are cached for a year, and an upgrade changes the URLs. No part
// of a request's path reaches the file system, so none can lead out of the package's directory.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, resolve, sep } from "node:path";
import { Response } from "./fetch-api.ts";

const contentTypes: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".png": "image/png",
};

export interface PackageFiles {
  /** The URL path of one of the files. */
  url(file: string): string;
  /** The answer for a GET or HEAD of `pathname`, or undefined when it is none of the files. */
  serve(pathname: string): Promise<Response | undefined>;
}

/** `files` of package `name` (paths inside its directory), served under `<prefix>/<name>@<version>/`. */
export function packageFiles(name: string, prefix: string, files: string[]): PackageFiles {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${name}/package.json`);
  const { version } = require(manifest) as { version: string };
  const dir = dirname(manifest);
  const base = `${prefix}/${name}@${version}/`;
  const paths = new Map<string, { path: string; type: string }>();
  for (const file of files) {
    const path = resolve(dir, file);
    const type = contentTypes[extname(file)];
    if (!path.startsWith(dir + sep) || !type) throw new Error(`cannot serve ${file} of ${name}`);
    paths.set(base + file, { path, type });
  }

  return {
    url: (file) => base + file,
    async serve(pathname) {
      const file = paths.get(pathname);
      if (!file) return undefined;
      return new Response(await readFile(file.path), {
        headers: {
          "content-type": file.type,
          "cache-control": "public, max-age=31536000, immutable",
          "x-content-type-options": "nosniff",
        },
      });
    },
  };
}
