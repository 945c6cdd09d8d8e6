// `/about/` is the page at `/about`, as on the service: links imported from other sites end in a slash.
// On its own, without the database, for the render workers (src/render/render-worker.ts) to import.
export const withoutTrailingSlash = (path: string) => path.replace(/(?<=.)\/+$/, "");
