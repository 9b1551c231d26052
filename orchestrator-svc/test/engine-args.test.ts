/** Engine arguments of the project's CPU text-generation runtime are checked at `svc run`, before anything starts. */
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model, Profile, RunRequest } from "@svc/contracts";
import { ApiError } from "@svc/contracts";
import { planLaunch, type PlannerDeps } from "../src/launch/planner";
import { plannerDeps } from "./planner-deps";
import { ImageCatalog } from "../src/catalog/images";

const home = mkdtempSync(join(tmpdir(), "svc-engine-args-"));
const local: Profile = { name: "default", schema: "local", home_dir: home, cache_dir: home };
const cluster: Profile = { name: "cluster", schema: "slurm", host: "localhost", user: "me", home: "~/svc", cache: "/cache" } as Profile;
const model: Model = { repo: "acme/tiny", revision: "a".repeat(40), profile: "default", image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z" };

function deps(env: Record<string, string> = {}, profile: Profile = local): PlannerDeps {
  return plannerDeps(env, profile, model);
}
const plan = (engineArgs: string[], extra: Partial<RunRequest> = {}, planner = deps()) =>
  planLaunch({ task: "text-generation", model: "acme/tiny", engineArgs, ...extra }, planner, "default");
const refusal = (promise: Promise<unknown>) => promise.then(() => { throw new Error("accepted"); }, (error) => error as ApiError);

test("the table's options pass, in the order given, to the runtime's arguments", async () => {
  const launch = await plan(["--ctx-size", "512", "-t", "2", "--parallel=2", "--flash-attn", "off"]);
  expect(launch.args).toEqual(["--ctx-size", "512", "-t", "2", "--parallel=2", "--flash-attn", "off"]);
  expect(launch.warnings.some((warning) => warning.includes("ignored"))).toBe(false);
});

test("an unknown option is a 400 listing the accepted ones", async () => {
  const error = await refusal(plan(["--ctx-size", "512", "--bogus-flag", "1"]));
  expect(error.status).toBe(400);
  expect(error.message).toStartWith("unknown engine option --bogus-flag. The CPU text-generation runtime accepts these llama.cpp server options:");
  expect(error.message).toContain("--ctx-size, -c N");
  expect(error.details).toEqual({ accepted: expect.arrayContaining(["--ctx-size", "--threads", "--batch-size", "--parallel", "--n-gpu-layers"]) });
  expect((await refusal(plan(["stray"]))).message).toStartWith('unexpected engine argument "stray".');
});

test("a bad value is a 400 saying what to give", async () => {
  const error = await refusal(plan(["--threads", "many"]));
  expect(error.status).toBe(400);
  expect(error.message).toStartWith('--threads "many": use a whole number from 1 to 1024.');
});

test("--n-gpu-layers is accepted with a warning that it does nothing on CPU", async () => {
  const launch = await plan(["-ngl", "99"]);
  expect(launch.warnings).toContain("--n-gpu-layers is ignored: the CPU runtime keeps every layer on the CPU.");
});

test("a bare Slurm job runs the project's runtime, so its arguments are checked too", async () => {
  expect((await refusal(plan(["--bogus-flag"], {}, deps({}, cluster)))).status).toBe(400);
});

test("the arguments of a replacement image, and of vLLM in another image (--image), pass through unchecked", async () => {
  expect((await plan(["--bogus-flag", "1"], { job: { gres: 1 }, image: "my-lab/vllm:0.6" })).args.slice(-2)).toEqual(["--bogus-flag", "1"]);
  expect((await refusal(plan(["--bogus-flag", "1"], {}, deps({ SVC_TEXT_GENERATION_ENGINE: "vllm" })))).message).toContain("--bogus-flag is not an option of vLLM");
  expect((await plan(["--bogus-flag", "1"], {}, deps({ SVC_RUNTIME_IMAGE_TEXT_GENERATION: "my-llama:1" }))).args).toEqual(["--bogus-flag", "1"]);
});

test("the project's image pinned to another tag is still checked", async () => {
  expect((await refusal(plan(["--ctx-size", "x"], {}, deps({ SVC_RUNTIME_IMAGE_TEXT_GENERATION: "svc-text-generation:0123abcd" })))).status).toBe(400);
});

test("an image svc's build labelled (a re-tag under any name) is the project's runtime; an unlabelled or unknown one is not", async () => {
  const catalog = ImageCatalog.fromEnv({});
  const labels: Record<string, Record<string, string>> = {
    "my-lab/llm:copy": { "svc.content": "svc-text-generation:0123456789abcdef" },
    "my-lab/other:1": { "svc.content": "0123456789abcdef", maintainer: "me" },
  };
  const labelsOf = async (image: string) => labels[image];
  expect(await catalog.isProjectRuntime("svc-text-generation:pinned", labelsOf)).toBe(true);
  expect(await catalog.isProjectRuntime("my-lab/llm:copy", labelsOf)).toBe(true);
  expect(await catalog.isProjectRuntime("my-lab/other:1", labelsOf)).toBe(false);
  expect(await catalog.isProjectRuntime("not/here:1", labelsOf)).toBe(false);
  expect(await catalog.isProjectRuntime("my-lab/llm:copy")).toBe(false);
  const planner = { ...deps(), isProjectRuntime: (image: string) => catalog.isProjectRuntime(image, labelsOf) };
  expect((await refusal(plan(["--bogus-flag"], { image: "my-lab/llm:copy" }, planner))).status).toBe(400);
  expect((await plan(["--bogus-flag"], { image: "my-lab/other:1" }, planner)).args).toEqual(["--bogus-flag"]);
});
