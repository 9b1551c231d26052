/**
 * `npm run images:build [runtime…]`: builds the base image (images/base/build.sh, debootstrap) and
 * the runtime images on top of it, each tagged by its content; unchanged images are not rebuilt.
 * Prints one image tag per line.
 */
import { buildRuntimeImage } from "./lib/runtime-image";

export const RUNTIMES = ["text-generation", "speech-recognition"] as const;

const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

function baseImage(): string {
  const result = Bun.spawnSync(["bash", `${root}/images/base/build.sh`], { stdout: "pipe", stderr: "inherit" });
  if (result.exitCode !== 0) throw new Error("images/base/build.sh failed");
  return result.stdout.toString().trim().split("\n").pop()!;
}

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(RUNTIMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`unknown runtime ${unknown.join(", ")}; choose from ${RUNTIMES.join(", ")}`);
    process.exit(2);
  }
  const base = baseImage();
  for (const runtime of wanted.length > 0 ? wanted : RUNTIMES) {
    const started = performance.now();
    const image = buildRuntimeImage(root, runtime, base);
    const how = image.built ? `built in ${((performance.now() - started) / 1000).toFixed(1)} s` : "up to date";
    console.error(`${image.tag} (${how})`);
    console.log(image.tag);
  }
}
