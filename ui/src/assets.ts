import { join } from "node:path";

/** URL prefix of the UI's static files; the gateway serves them without authentication. */
export const ASSET_PREFIX = "/assets";

/** Static files by the name they are served under, mapped to where they are on disk. */
export const ASSET_FILES: Record<string, string> = {
  "htmx.min.js": require.resolve("htmx.org/dist/htmx.min.js"),
  "app.css": join(import.meta.dir, "..", "assets", "app.css"),
  "svc.js": join(import.meta.dir, "..", "assets", "svc.js"),
};
