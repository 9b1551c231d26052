/**
 * `bun cli/bundle.ts`: builds the CLI into cli/.bundle (build-bundle.ts), run by `npm install` (the
 * root package's `prepare`). `./svc` runs cli/.bundle/main.js, which runs the sources instead while
 * one it was built from changed since, so an edit is never hidden by a stale bundle.
 */
import { join, relative } from "node:path";
import { bundleCli } from "./build-bundle";

const root = join(import.meta.dir, "..");
const result = await bundleCli(root);
if ("failed" in result) {
  // `npm install` goes on: without a bundle ./svc runs the sources.
  for (const message of result.failed) console.error(message);
  console.error("svc: the CLI was not bundled; ./svc runs it from its sources.");
} else {
  console.log(`svc: CLI bundled into ${relative(root, join(root, "cli", ".bundle"))} (${result.sources} sources and folders checked at each start)`);
}
