/**
 * `bun supervisor/bundle.ts`: builds the components `svc start` runs into supervisor/.bundle
 * (build-bundle.ts), run by `npm install` (the root package's `prepare`).
 */
import { join } from "node:path";
import { bundleComponents } from "./build-bundle";

const result = await bundleComponents(join(import.meta.dir, ".."));
if ("failed" in result) {
  // `npm install` goes on: without a bundle `svc start` runs the sources.
  for (const message of result.failed) console.error(message);
  console.error("svc: the components were not bundled; svc start runs them from their sources.");
} else {
  console.log(`svc: components bundled into supervisor/.bundle (${result.sources} sources and folders checked at each svc start)`);
}
