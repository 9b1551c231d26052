/**
 * The run options of issue 20 at planning time: Slurm's account/qos/reservation/exclude/nodelist,
 * --mount, --grace-period and --image validated (hostile values refused), a slurm profile's job
 * defaults, and a warning naming each option that does nothing where the service runs.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, type Model, type Profile, type RunRequest } from "@svc/contracts";
import { planLaunch, type PlannerDeps } from "../src/launch/planner";
import { plannerDeps } from "./planner-deps";

const home = mkdtempSync(join(tmpdir(), "svc-run-options-"));
const data = join(home, "data");
mkdirSync(data);
symlinkSync(data, join(home, "data-link"));
const local: Profile = { name: "default", schema: "local", home_dir: home, cache_dir: home };
const cluster: Profile = { name: "hpc", schema: "slurm", host: "localhost", user: "me", home: "~/svc", cache: "/cache", account: "proj1", partition: "cpu", qos: "normal" };
const apptainer: Profile = { ...cluster, name: "hpc-sif", runtime: "apptainer" } as Profile;

function deps(profile: Profile = local): PlannerDeps {
  const model: Model = { repo: "acme/tiny", revision: "a".repeat(40), profile: profile.name, image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z" };
  return plannerDeps({}, profile, model);
}
const plan = (extra: Partial<RunRequest>, profile: Profile = local) => planLaunch({ task: "text-generation", model: "acme/tiny", ...extra }, deps(profile), "default");
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("accepted");
    },
    (error) => error as ApiError,
  );

describe("Slurm's scheduling options", () => {
  test("are taken as given", async () => {
    const job = { account: "proj-2", qos: "high.prio", reservation: "maint_01", exclude: "node[01-04],gpu7", nodelist: "node05" };
    expect((await plan({ job }, cluster)).job).toMatchObject(job);
  });

  test("hostile values are refused with what to give, before anything starts", async () => {
    const hostile = ["a b", "x;rm -rf /", "$(id)", "`id`", "a\nb", "-x", "a'b", 'a"b', "a|b", "../x"];
    for (const field of ["account", "qos", "reservation"] as const) {
      for (const value of hostile) {
        const error = await refusal(plan({ job: { [field]: value } }, cluster));
        expect(error.status).toBe(400);
        expect(error.message).toStartWith(`--${field} ${JSON.stringify(value)}: a Slurm ${field} name has letters, digits`);
      }
    }
    for (const field of ["exclude", "nodelist"] as const) {
      for (const value of hostile.filter((v) => v !== "../x")) {
        const error = await refusal(plan({ job: { [field]: value } }, cluster));
        expect(error.status).toBe(400);
        expect(error.message).toStartWith(`--${field} ${JSON.stringify(value)}: give node names or a Slurm hostlist`);
      }
    }
  });
});

describe("a slurm profile's job defaults", () => {
  test("fill in account, partition and qos unless the run gives its own", async () => {
    expect((await plan({}, cluster)).job).toEqual({ account: "proj1", partition: "cpu", qos: "normal" });
    expect((await plan({ job: { account: "other", qos: "long" } }, cluster)).job).toEqual({ account: "other", partition: "cpu", qos: "long" });
  });

  test("do not apply to a local profile", async () => {
    expect((await plan({})).job).toEqual({});
  });
});

describe("--mount", () => {
  test("an existing folder is bound from where its links lead, at the path given", async () => {
    expect((await plan({ mounts: [data, join(home, "data-link")] })).mounts).toEqual([
      { source: data, target: data },
      { source: data, target: join(home, "data-link") },
    ]);
  });

  test("a cluster's folder is taken as written (the job checks it on its node)", async () => {
    expect((await plan({ mounts: ["/shared/corpus"] }, cluster)).mounts).toEqual([{ source: "/shared/corpus", target: "/shared/corpus" }]);
  });

  test("relative, hostile, missing, system and container folders are refused", async () => {
    const cases: [string, string][] = [
      ["data", "give an absolute folder path"],
      ["/data/a:b", "give an absolute folder path"],
      ["/data/a,readonly=false", "give an absolute folder path"],
      ["/data/../etc", "give an absolute folder path"],
      ["/data/x\ny", "give an absolute folder path"],
      ["/", "it is the whole filesystem, which no job may see"],
      ["/etc", "it is in /etc, which holds the system's own files"],
      ["/proc/self", "is in /proc, which holds the system's own files"],
      ["/tmp", "holds what the service's container needs itself"],
      ["/usr/share", "holds what the service's container needs itself"],
      [join(home, "nope"), "there is no such folder on this machine"],
    ];
    for (const [path, message] of cases) {
      const error = await refusal(plan({ mounts: [path] }));
      expect(error.status).toBe(400);
      expect(error.message).toContain(message);
    }
    expect((await refusal(plan({ mounts: [data, `${data}/`] }))).message).toContain("is given twice");
  });
});

describe("--image", () => {
  test("replaces the image of this service", async () => {
    expect((await plan({ image: "registry.example:5000/team/llama:1.2" })).image).toBe("registry.example:5000/team/llama:1.2");
  });

  test("hostile references are refused", async () => {
    for (const image of ["a b", "x;id", "$(id)", "-rm", "img\n", "a'b"]) {
      const error = await refusal(plan({ image }));
      expect(error.status).toBe(400);
      expect(error.message).toStartWith(`--image ${JSON.stringify(image)}: give an image reference`);
    }
  });
});

describe("options that do nothing say so, each one named", () => {
  test("Slurm's job options on a local profile", async () => {
    const { warnings } = await plan({ job: { time: "10", partition: "p", constraint: "c", ntasksPerNode: 2, account: "a", qos: "q", reservation: "r", exclude: "n1", nodelist: "n2", mem: 1 } });
    const warning = warnings.find((w) => w.includes("local profile"));
    expect(warning).toBe(
      "--time, --ntasks-per-node, --partition, --constraint, --account, --qos, --reservation, --exclude and --nodelist do nothing on local profile default: they are Slurm job options, and Docker runs this service (it honours --mem and --gres).",
    );
    expect((await plan({ job: { time: "10" } })).warnings).toContain(
      "--time does nothing on local profile default: it is a Slurm job option, and Docker runs this service (it honours --mem and --gres).",
    );
    expect((await plan({ job: { mem: 1, gres: 0 } })).warnings.some((w) => w.includes("do nothing") || w.includes("does nothing"))).toBe(false);
  });

  test("not on a slurm profile", async () => {
    const { warnings } = await plan({ job: { time: "10", account: "a" } }, cluster);
    expect(warnings.some((w) => w.includes("nothing"))).toBe(false);
  });

  test("--disable-custom-kernels and --sharded on the CPU runtime", async () => {
    expect((await plan({ textGeneration: { disableCustomKernels: true } })).warnings).toContain(
      "--disable-custom-kernels does nothing on the CPU runtime: it applies to GPU engines (vLLM, with --gres 1 or more).",
    );
    expect((await plan({ textGeneration: { disableCustomKernels: true, sharded: "false" } }, cluster)).warnings).toContain(
      "--disable-custom-kernels and --sharded do nothing on the CPU runtime: they apply to GPU engines (vLLM, with --gres 1 or more).",
    );
    expect((await plan({ textGeneration: { disableCustomKernels: true }, job: { gres: 1 } }, cluster)).warnings.some((w) => w.includes("custom-kernels"))).toBe(false);
  });

  test("--image on a bare slurm job, not with apptainer", async () => {
    expect((await plan({ image: "my/llama:1" }, cluster)).warnings).toContain(
      "--image does nothing on slurm profile hpc: its jobs run the svc runtime itself (runtime = bare); an image is used with runtime = apptainer.",
    );
    expect((await plan({ image: "my/llama:1" }, apptainer)).warnings.some((w) => w.includes("--image"))).toBe(false);
  });
});
