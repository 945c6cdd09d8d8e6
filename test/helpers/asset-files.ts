// Where a test server keeps its uploaded files: CMS_DATA_DIR/assets/<installation ID>/<account ID>/<asset ID>
// (src/storage/storage.ts). A test server's data directory holds one installation's folder, unless a test
// puts another beside it.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { TestServer } from "./server.ts";

export const assetsRoot = (server: TestServer) => join(server.env.CMS_DATA_DIR ?? "", "assets");

/** The folders of installations in the server's data directory. */
export function installationFolders(server: TestServer): string[] {
  return readdirSync(assetsRoot(server)).filter((name) => name.startsWith("inst_"));
}

/** The folder of the server's account `accountId` (of the only installation there, or of `installation`). */
export function accountFolder(server: TestServer, accountId: string, installation?: string): string {
  const folders = installationFolders(server);
  const chosen = installation ?? folders[0];
  if (!chosen || (installation === undefined && folders.length !== 1))
    throw new Error(`expected one installation folder in ${assetsRoot(server)}, found ${folders.join(", ")}`);
  return join(assetsRoot(server), chosen, accountId);
}

export const assetFile = (server: TestServer, accountId: string, assetId: string) =>
  join(accountFolder(server, accountId), assetId);
