import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { SvcClient } from "@svc/client";
import { REPO_ROOT } from "./svc-app";

export const TINY_TEXT_MODEL = "svc-tiny/tiny-llama-gguf";

/**
 * Gives a running application the default local profile (home under `home`) with the project's
 * tiny models generated in its model folder and registered.
 */
export async function registerTinyModels(client: SvcClient, home: string): Promise<void> {
  const modelsHome = join(home, "profile-home");
  mkdirSync(join(home, "shared-cache"), { recursive: true });
  const make = Bun.spawnSync([process.execPath, "runtimes/tiny-models/src/cli.ts", join(modelsHome, "models")], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  if (make.exitCode !== 0) throw new Error(`making the tiny models failed:\n${make.stderr.toString()}`);
  await client.profiles.create({ name: "default", schema: "local", home_dir: modelsHome, cache_dir: join(home, "shared-cache") });
  await client.models.refresh("default");
}
