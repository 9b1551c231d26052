/**
 * Builds, before a whole-suite run's files start, the images its files need: the two runtime
 * images, the Slurm test cluster, the fake runtime and the application's image (compose.test.ts), all
 * at once (each build mostly waits on apt and Docker); and fills the npm cache the test clusters' apps
 * share (sharedNpmCache) with Bun for the cluster's runtime. Without this, the first files to start
 * each built or fetched the same things side by side on a new machine, and every file hashed the
 * runtime tree again to learn its tag. Prints the tags as the JSON of SVC_TEST_PREBUILT_IMAGES
 * (tests/support/prebuilt-images.ts).
 */
import type { PrebuiltImages } from "@svc/testing/prebuilt-images";

const root = new URL("../..", import.meta.url).pathname;

/** One build in its own process (the builders are synchronous); its last stdout line, or an error with its stderr. */
async function run(args: string[]): Promise<string> {
  const proc = Bun.spawn([process.execPath, ...args], { cwd: root, stdout: "pipe", stderr: "pipe", env: process.env });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`preparing for the tests failed (bun ${args.join(" ").slice(0, 200)}, exit ${code}):\n${err.slice(-4000)}`);
  return out.trim().split("\n").pop()!;
}
const build = (script: string) => run(["-e", script]);

export async function buildTestImages(): Promise<PrebuiltImages> {
  const testing = JSON.stringify(`${root}tests/support/index.ts`);
  const images = JSON.stringify(`${root}images/index.ts`);
  const [runtimes, slurm, fake] = await Promise.all([
    build(`const { buildRuntimeImages } = await import(${testing}); console.log(JSON.stringify(buildRuntimeImages().images));`),
    build(`const { ensureSlurmTestImage } = await import(${testing}); console.log(ensureSlurmTestImage());`),
    build(`const { fakeRuntimeImage } = await import(${testing}); console.log(fakeRuntimeImage());`),
    run(["images/build.ts", "app"]),
    build(
      `const { sharedNpmCache } = await import(${testing}); const { linuxBun, NpmPackages, SVC_ROOT } = await import(${images});` +
        `await linuxBun(SVC_ROOT, process.arch === "arm64" ? "arm64" : "x64", new NpmPackages(sharedNpmCache()));`,
    ),
  ]);
  return { ...(JSON.parse(runtimes) as Pick<PrebuiltImages, "text-generation" | "speech-recognition">), "slurm-test": slurm, "fake-runtime": fake };
}

if (import.meta.main) console.log(JSON.stringify(await buildTestImages()));
