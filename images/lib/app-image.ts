import { readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { workspaceTree } from "./image-tree";
import { buildStagedImage } from "./staged-image";

/** The workspaces compose.yaml runs (each has src/main.ts); their closure brings the rest. */
export const APP_WORKSPACES = ["gateway", "profile-svc", "model-svc", "orchestrator-svc"];
export const APP_IMAGE_NAME = "svc-app";

/**
 * Builds `svc-app:<content tag>` (and `:latest`, or `alsoTag`) FROM `baseTag` without any
 * registry: the application's installed tree is copied in, as for the runtime images.
 */
export function buildAppImage(root: string, baseTag: string, options: { showProgress?: boolean; name?: string; alsoTag?: string; bun?: string } = {}) {
  return buildStagedImage({
    dockerfile: join(root, "images", "app", "Dockerfile"),
    name: options.name ?? APP_IMAGE_NAME,
    alsoTag: options.alsoTag,
    baseTag,
    bun: realpathSync(options.bun ?? process.execPath),
    debs: [],
    // The root package.json too: it carries the version the application reports.
    // Without @svc/images: a container cannot build images, and orchestrator-svc says so when asked to.
    tree: [
      ...workspaceTree(root, APP_WORKSPACES, [/^[^/]+\/test\//, /^[^/]+\/drizzle\.config\.ts$/], ["@svc/images"]),
      { target: "package.json", source: join(root, "package.json") },
      // The documentation the gateway serves at /docs.
      { target: "README.md", source: join(root, "README.md") },
      ...readdirSync(join(root, "docs")).filter((file) => file.endsWith(".md")).map((file) => ({ target: `docs/${file}`, source: join(root, "docs", file) })),
    ],
    network: "none",
    showProgress: options.showProgress,
  });
}
