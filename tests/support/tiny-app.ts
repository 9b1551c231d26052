/**
 * An svc app for end-to-end tests of services: a fresh home, the runtime images built from this
 * tree and pinned by their content tags (`:latest` may be retagged by another checkout sharing the
 * Docker Engine), a local default profile and the tiny models registered. Removes its services and
 * home when cleaned up.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import { TINY_LORA_GGUF_REPO, TINY_LORA_PEFT_REPO, TINY_SAFETENSORS_REPO, TINY_SPEECH_REPO, TINY_TEXT_REPO } from "@svc/runtime-tiny-models";
import { ensureDocker } from "./docker";
import { prebuiltImage } from "./prebuilt-images";
import { eventually, REPO_ROOT, runSvc, startSvc, type RunningSvc } from "./svc-app";

export const TEXT_MODEL = TINY_TEXT_REPO;
export const SPEECH_MODEL = TINY_SPEECH_REPO;
/** The tiny llama as a safetensors checkpoint: the base of LORA_PEFT. */
export const SAFETENSORS_MODEL = TINY_SAFETENSORS_REPO;
/** The GGUF LoRA adapter of TEXT_MODEL. */
export const LORA_GGUF = TINY_LORA_GGUF_REPO;
/** The PEFT LoRA adapter of SAFETENSORS_MODEL. */
export const LORA_PEFT = TINY_LORA_PEFT_REPO;
/** Everything the tiny-model generator writes: what a refresh of its folder registers. */
export const TINY_REPOS = [TEXT_MODEL, SPEECH_MODEL, SAFETENSORS_MODEL, LORA_GGUF, LORA_PEFT];

/** Runs a command from the repository root; its stdout, or an error with its stderr. */
export function sh(command: string[], cwd = REPO_ROOT): string {
  const result = Bun.spawnSync(command, { cwd, stdout: "pipe", stderr: "pipe", env: process.env });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed:\n${result.stderr.toString()}`);
  return result.stdout.toString();
}

/**
 * Writes the tiny models and adapters into the Hugging Face cache folder `cacheDir`: generated once
 * per version of their generator (runtimes/tiny-models/src) into a folder every test file shares,
 * then copied (links kept as they are: a test may change its copy, never the shared one).
 */
export function copyTinyModels(cacheDir: string): void {
  const sources = join(REPO_ROOT, "runtimes", "tiny-models", "src");
  const hash = new Bun.CryptoHasher("sha256");
  for (const name of readdirSync(sources).sort()) hash.update(name).update(readFileSync(join(sources, name)));
  const shared = join(tmpdir(), "svc-test-tiny-models", hash.digest("hex").slice(0, 16));
  if (!existsSync(shared)) {
    const writing = `${shared}.${process.pid}`;
    sh([process.execPath, "runtimes/tiny-models/src/cli.ts", writing]);
    try {
      renameSync(writing, shared);
    } catch {
      // Another file generated the same version meanwhile.
      rmSync(writing, { recursive: true, force: true });
    }
  }
  cpSync(shared, cacheDir, { recursive: true, verbatimSymlinks: true });
}

export type RuntimeImages = Record<"text-generation" | "speech-recognition", string>;

/**
 * Builds the runtime images from this tree; their content tags, and the environment that makes an
 * app run exactly them.
 */
export function buildRuntimeImages(): { images: RuntimeImages; env: Record<string, string> } {
  const prebuilt = [prebuiltImage("text-generation"), prebuiltImage("speech-recognition")];
  const [textImage, speechImage] = prebuilt.every(Boolean) ? (prebuilt as string[]) : sh([process.execPath, "images/build.ts", "text-generation", "speech-recognition"]).trim().split("\n");
  return {
    images: { "text-generation": textImage, "speech-recognition": speechImage },
    env: { SVC_RUNTIME_IMAGE_TEXT_GENERATION: textImage, SVC_RUNTIME_IMAGE_SPEECH_RECOGNITION: speechImage },
  };
}

export interface TinyApp {
  app: RunningSvc;
  /** The runtime images this app runs, by task (content tags). */
  images: RuntimeImages;
  client: SvcClient;
  /** The environment the CLI needs to reach this app. */
  env: Record<string, string>;
  /** The default profile's home_dir (models under models/). */
  modelsHome: string;
  /** Resolves when the service has `wanted` status. */
  reaches(id: string, wanted: ServiceStatus, ms?: number): Promise<void>;
  /** `svc run <args>` on this app; the new service's id once it is HEALTHY. */
  serving(args: string[], ms?: number): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * Gives a running app the default local profile, its home under `home`, with the tiny models and
 * adapters generated in its model folder and registered. Returns the profile's home_dir.
 */
export async function registerTinyModels(client: SvcClient, home: string): Promise<string> {
  const modelsHome = join(home, "profile-home");
  mkdirSync(join(home, "shared-cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: modelsHome, cache_dir: join(home, "shared-cache") });
  copyTinyModels(join(modelsHome, "models"));
  await client.models.refresh("default");
  const registered = (await client.models.list({ profile: "default" })).map((model) => model.repo).sort();
  if (registered.join() !== [...TINY_REPOS].sort().join()) throw new Error(`the tiny models were not registered: ${registered.join(", ")}`);
  return modelsHome;
}

/** `env` adds to the app's environment (e.g. SVC_DEBUG=false with SVC_AUTH_TOKEN, which the client then sends). */
export async function startAppWithTinyModels(options: { env?: Record<string, string> } = {}): Promise<TinyApp> {
  ensureDocker();
  const runtimes = buildRuntimeImages();
  const app = await startSvc({ env: { ...runtimes.env, ...options.env } });
  const client = new SvcClient({ baseUrl: app.url, token: options.env?.SVC_AUTH_TOKEN });
  const modelsHome = await registerTinyModels(client, app.home);
  const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), ...(options.env?.SVC_AUTH_TOKEN ? { SVC_AUTH_TOKEN: options.env.SVC_AUTH_TOKEN } : {}) };
  const reaches = (id: string, wanted: ServiceStatus, ms = 60_000) => eventually(async () => (await client.services.get(id)).status === wanted, ms, `${id} to be ${wanted}`);
  return {
    app,
    images: runtimes.images,
    client,
    env,
    modelsHome,
    reaches,
    async serving(args, ms = 180_000) {
      const run = await runSvc(["run", ...args], env);
      if (run.code !== 0) throw new Error(`svc run failed: ${run.stderr}`);
      const id = run.stdout.trim();
      await reaches(id, "HEALTHY", ms);
      return id;
    },
    async cleanup() {
      for (const service of await client.services.list({ all: true })) await client.services.remove(service.id, { force: true }).catch(() => {});
      await app.cleanup();
    },
  };
}
