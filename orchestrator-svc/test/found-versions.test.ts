/** Reading an engine's version where it runs: the probe's command and answer, images' labels and tags, the cache per profile and image. */
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GpuEngine, Profile } from "@svc/contracts";
import { FOUND_VERSION_TTL_MS, FoundVersions } from "../src/engines/versions/found-versions";
import { probeCommand, readProbe, VERSION_LINE, versionOfImage } from "../src/engines/versions/probe";
import { versionProbe } from "../src/engines/versions/probes";
import { runPythonInImage } from "../src/engines/docker/image-python";
import { DockerApi } from "../src/engines/docker/docker-api";
import type { Engines } from "../src/engines/registry";
import { ensureSlurmTestImage } from "@svc/testing";

test("the probe is a fixed Python line, quoted; an Apptainer image's path is quoted as a remote path", () => {
  expect(probeCommand("vllm")).toBe(`PATH="$HOME/.local/bin:$PATH" python3 -c 'import vllm; print(vllm.__version__)'`);
  expect(probeCommand("sglang", "~/svc/images/x; rm -rf ~.sif")).toStartWith(`apptainer exec "$HOME"/'svc/images/x; rm -rf ~.sif' python3 -c 'import sglang;`);
  expect(readProbe("some warning\n0.26.1\n")).toBe("0.26.1");
  expect(readProbe("Traceback …\nModuleNotFoundError: No module named 'vllm'")).toBeNull();
});

test("an image says its version by svc's label, else by a tag that is a version", () => {
  expect(versionOfImage("vllm/vllm-openai:v0.11.1", undefined)).toEqual({ version: "v0.11.1", how: "the image's tag v0.11.1" });
  expect(versionOfImage("registry:5000/team/vllm:prod", { "svc.engine-version": "0.30.1" })).toEqual({ version: "0.30.1", how: "the image's label svc.engine-version" });
  // The OCI version label of CUDA images is the base OS's: not read.
  expect(versionOfImage("team/vllm:latest", { "org.opencontainers.image.version": "22.04" }).version).toBeNull();
});

const profile = { name: "cluster", schema: "slurm", host: "h", user: "u", home: "~/svc", cache: "/c" } as Profile;

test("versions are kept per profile, engine and image, read once at a time, again after an hour; a failed read is not kept", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "svc-found-versions-")), "engine-versions.json");
  let now = Date.parse("2026-12-01T10:00:00Z");
  const probes: string[] = [];
  let failing = false;
  const probe = async (_profile: Profile, engine: GpuEngine, image: string | null) => {
    probes.push(`${engine} ${image}`);
    if (failing) throw new Error("unreachable");
    await Bun.sleep(1);
    return { version: engine === "vllm" ? "0.26.1" : null, how: "python3 on h" };
  };
  const found = new FoundVersions(file, probe, () => now);
  const [a, b] = await Promise.all([found.find(profile, "vllm", null), found.find(profile, "vllm", null)]);
  expect(a).toEqual({ version: "0.26.1", how: "python3 on h" });
  expect(b).toEqual(a);
  expect(await found.find(profile, "sglang", null)).toEqual({ version: null, how: "python3 on h" });
  expect(probes).toEqual(["vllm null", "sglang null"]);
  // Another process (the next start) reads the same file.
  expect(new FoundVersions(file, probe, () => now).list("cluster").map((each) => [each.engine, each.version, each.image])).toEqual([
    ["vllm", "0.26.1", null],
    ["sglang", null, null],
  ]);
  now += FOUND_VERSION_TTL_MS + 1;
  failing = true;
  expect(await found.find(profile, "vllm", null)).toBeNull();
  failing = false;
  await found.find(profile, "vllm", "vllm/vllm-openai:v0.11.1");
  expect(probes.slice(2)).toEqual(["vllm null", "vllm vllm/vllm-openai:v0.11.1"]);
  expect(found.list("other")).toEqual([]);
});

test("a read that does not answer in time counts as none, and is not kept", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "svc-found-versions-")), "engine-versions.json");
  const found = new FoundVersions(file, () => new Promise(() => {}), Date.now, 20);
  expect(await found.find(profile, "vllm", null)).toBeNull();
  expect(found.list("cluster")).toEqual([]);
});

test("a local image that names no version: the package's version read by python3 in a throwaway container (the test cluster's image has the stand-in vLLM)", async () => {
  const image = ensureSlurmTestImage();
  const api = DockerApi.fromEnv();
  const ran = await runPythonInImage(api, image, VERSION_LINE.vllm);
  expect(ran.code).toBe(0);
  expect(readProbe(ran.stdout)).toMatch(/^\d+\.\d+\.\d+$/);
  const local = { labels: async () => ({}), python: (name: string, line: string) => runPythonInImage(api, name, line) };
  const probe = versionProbe({} as Engines, local);
  const localProfile = { name: "default", schema: "local", home_dir: "/h", cache_dir: "/c" } as Profile;
  const sglang = readProbe((await runPythonInImage(api, image, VERSION_LINE.sglang)).stdout);
  expect(sglang).not.toBeNull();
  expect(await probe(localProfile, "sglang", image)).toEqual({ version: sglang, how: `the package in ${image}` });
  expect((await probe(localProfile, "vllm", "team/vllm:v0.26.1")).version).toBe("v0.26.1");
  // No throwaway container is left behind.
  const left = await api.json<unknown[]>("GET", `/containers/json?all=1&filters=${encodeURIComponent(JSON.stringify({ label: ["svc.probe=engine-version"] }))}`);
  expect(left).toEqual([]);
}, 120_000);
