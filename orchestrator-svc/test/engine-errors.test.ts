/** Engine files throw EngineError only; the services feature turns each kind into one HTTP answer, with the message users saw before. */
import { expect, test } from "bun:test";
import type { Profile, SlurmProfile } from "@svc/contracts";
import { EngineError } from "../src/engines/engine-error";
import { Engines } from "../src/engines/registry";
import { RuntimeInstalls } from "../src/engines/slurm/runtime/installs";
import type { DockerEngine } from "../src/engines/docker/docker-engine";
import type { SlurmEngine } from "../src/engines/slurm/slurm-engine";
import { engineFailure } from "../src/services/engine-failure";

const local: Profile = { name: "default", schema: "local", home_dir: "/h", cache_dir: "/c" };

test("svc runtime on a local profile: an EngineError that answers 400 not_a_slurm_profile", async () => {
  const engines = new Engines({ docker: {} as DockerEngine, slurm: () => ({}) as SlurmEngine, profile: async () => local });
  const error = await engines.clusterRuntime(local).catch((e) => e);
  expect(error).toBeInstanceOf(EngineError);
  expect(engineFailure(error, "x").toBody()).toEqual({ error: "not_a_slurm_profile", message: "Profile default is a local profile: its services run in containers here and need no svc runtime. Name a slurm profile (--profile)." });
  expect(engineFailure(error, "x").status).toBe(400);
});

test("a slurm profile that became a local one: an EngineError that answers 409 profile_schema_changed", async () => {
  let load: (() => Promise<SlurmProfile>) | undefined;
  const engines = new Engines({ docker: {} as DockerEngine, slurm: (_name, given) => ((load = given), { use: () => ({}) }) as unknown as SlurmEngine, profile: async () => local });
  engines.forRecord({ engine: "slurm", profile: "default" });
  const error = await load!().catch((e) => e);
  expect(error).toBeInstanceOf(EngineError);
  const answer = engineFailure(error, "x");
  expect([answer.status, answer.code, answer.message]).toEqual([409, "profile_schema_changed", "Profile default is no longer a slurm profile."]);
});

test("a failed runtime install keeps the engine's code and message in its task", async () => {
  const installs = new RuntimeInstalls();
  const { task, done } = installs.run("t", { profile: "hpc", host: "h", version: "v", arch: "x64", bytesTotal: 1 }, async () => {
    throw new EngineError("unreachable", "cluster_unreachable", "The upload failed: connection reset");
  });
  await done.catch(() => {});
  expect(task.state).toBe("failed");
  expect(task.error).toEqual({ error: "cluster_unreachable", message: "The upload failed: connection reset" });
});
