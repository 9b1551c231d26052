/**
 * `npm run images:build [runtime…|app] [--image NAME[:TAG]]`: chooses the base (images/lib/base-choice.ts: a standard
 * Debian image the engine has or can pull, else the registry-free debootstrap base made by
 * images/base/build.sh), says which and why, then builds each runtime image FROM it, each tagged
 * by its content (`svc-<runtime>:<content>`, also `:latest`); unchanged images are not rebuilt.
 * `--image` (one runtime only) names the image instead, e.g. the SVC_RUNTIME_IMAGE_… of a deployment.
 * `app` builds `svc-app`, the management application's image for compose.yaml, the same way.
 * Progress goes to stderr (docker build's Step lines), one image tag per line to stdout.
 */
import { BaseChoiceError, buildSettings, chooseBase, type BaseChoice, type BaseProbe } from "./lib/base-choice";
import { imageExists, pullImage } from "./lib/docker-cli";
import { buildRuntimeImage } from "./lib/runtime-image";
import { buildAppImage } from "./lib/app-image";
import { engineBun } from "./lib/engine-bun";

export const RUNTIMES = ["text-generation", "speech-recognition"] as const;
const TARGETS: readonly string[] = [...RUNTIMES, "app"];

const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** The choice's questions, answered by the docker CLI and images/base/check.sh. */
const machine: BaseProbe = {
  present: imageExists,
  pull: (tag) => {
    console.error(`Pulling ${tag}…`);
    return pullImage(tag);
  },
  debootstrapMissing: () => {
    const check = Bun.spawnSync(["bash", `${root}/images/base/check.sh`], { stdout: "pipe", stderr: "pipe" });
    return check.exitCode === 0 ? undefined : check.stdout.toString().trim() || check.stderr.toString().trim();
  },
};

/** The base's tag, made first on the registry-free path (build.sh skips an up-to-date one). */
function prepareBase(choice: BaseChoice): string {
  if (choice.path === "pull") return choice.base;
  const result = Bun.spawnSync(["bash", `${root}/images/base/build.sh`], { stdout: "pipe", stderr: "inherit" });
  if (result.exitCode !== 0) throw new Error("images/base/build.sh failed");
  return result.stdout.toString().trim().split("\n").pop()!;
}

/** The runtimes asked for and the `--image` name, or a usage error. */
function parseArgs(args: string[]): { runtimes: string[]; image?: { name: string; tag: string } } {
  const at = args.indexOf("--image");
  const image = at >= 0 ? args[at + 1] : undefined;
  const runtimes = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const unknown = runtimes.filter((name) => !TARGETS.includes(name));
  if (unknown.length > 0) throw new Error(`unknown image ${unknown.join(", ")}; choose from ${TARGETS.join(", ")}`);
  if (at < 0) return { runtimes: runtimes.length > 0 ? runtimes : [...RUNTIMES] };
  if (!image || !/^[a-z0-9][a-z0-9._/-]*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$/.test(image) || runtimes.length !== 1) {
    throw new Error("--image needs one runtime and an image name, e.g. images/build.ts text-generation --image svc-text-generation:latest");
  }
  const [name, tag = "latest"] = image.split(":");
  return { runtimes, image: { name, tag } };
}

if (import.meta.main) {
  let wanted: ReturnType<typeof parseArgs>;
  try {
    wanted = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  let choice: BaseChoice;
  try {
    choice = chooseBase(machine, buildSettings(process.env));
  } catch (error) {
    if (!(error instanceof BaseChoiceError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  console.error(choice.message);
  const base = prepareBase(choice);
  // The ordinary path may run anywhere Docker does (macOS too): its images carry Linux Bun for the engine.
  let bun: string | undefined;
  if (choice.path === "pull") {
    try {
      const found = await engineBun(root);
      console.error(found.message);
      bun = found.path;
    } catch (error) {
      console.error(`Cannot get Bun for the Docker Engine: ${(error as Error).message}`);
      process.exit(1);
    }
  }
  for (const runtime of wanted.runtimes) {
    const started = performance.now();
    const options = { showProgress: true, name: wanted.image?.name, alsoTag: wanted.image?.tag };
    console.error(`Building the ${runtime === "app" ? "application's" : `${runtime} runtime`} image…`);
    const image = runtime === "app" ? buildAppImage(root, base, { ...options, bun }) : buildRuntimeImage(root, runtime, base, { ...options, path: choice.path, bun });
    const how = image.built ? `built in ${((performance.now() - started) / 1000).toFixed(1)} s` : "up to date";
    console.error(`${image.tag} (${how})`);
    console.log(image.tag);
  }
}
