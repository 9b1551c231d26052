/** Slurm status: the one status script (run here against stand-in squeue/scontrol), its parsing, and Slurm states → observations → statuses. */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatHandle, observe, parseHandle, parseStatusOutput, SlurmStatusError, statusScript, type JobStatus } from "../src/engines/slurm/job-status";
import { nextStatus } from "../src/reconciler/next-status";

const root = mkdtempSync(join(tmpdir(), "svc-slurm-status-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function fakeBin(files: Record<string, string>): string {
  const bin = join(root, `bin${Math.random().toString(36).slice(2)}`);
  mkdirSync(bin);
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

function runScript(script: string, bin: string): string {
  const proc = Bun.spawnSync(["sh", "-s"], { stdin: new TextEncoder().encode(script), env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root } });
  expect(proc.exitCode).toBe(0);
  return proc.stdout.toString();
}

describe("the status script", () => {
  test("one squeue for all jobs; scontrol only for ended or unlisted ones; port files, output tails and end times", () => {
    const running = join(root, "jobs", "a");
    const failed = join(root, "jobs", "b");
    mkdirSync(running, { recursive: true });
    mkdirSync(failed, { recursive: true });
    writeFileSync(join(running, "port"), "203.0.113.3 31337\n");
    writeFileSync(join(failed, "output.log"), "loading\nerror: unknown option --threads\n");
    const log = join(root, "calls.log");
    const bin = fakeBin({
      squeue: `echo "squeue $*" >> ${log}\nprintf '%s\\n' '11|RUNNING|None|2026-11-25T14:02:03' '12|PENDING|Resources|N/A' '13|FAILED|NonZeroExitCode|Unknown'`,
      // The cluster's clock is two hours ahead of UTC: squeue's times carry no offset, the script reads it from date.
      date: `echo +0200`,
      scontrol: `echo "scontrol $*" >> ${log}\ncase "$4" in 13) echo 'JobId=13 JobName=x JobState=FAILED Reason=NonZeroExitCode Dependency=(null) ExitCode=2:0 RunTime=00:00:03';; 14) echo 'JobId=14 JobState=TIMEOUT Reason=TimeLimit ExitCode=0:15';; *) echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1;; esac`,
    });
    const refs = [
      { jobId: "11", workDir: running },
      { jobId: "12", workDir: join(root, "jobs", "c") },
      { jobId: "13", workDir: failed },
      { jobId: "14", workDir: join(root, "jobs", "d") },
      { jobId: "15", workDir: join(root, "jobs", "e") },
    ];
    const statuses = parseStatusOutput(runScript(statusScript(refs), bin));
    expect(Bun.file(log).size).toBeGreaterThan(0);
    const calls = require("node:fs").readFileSync(log, "utf8").trim().split("\n");
    expect(calls.filter((c: string) => c.startsWith("squeue"))).toEqual([`squeue -h -t all -u ${Bun.spawnSync(["id", "-un"]).stdout.toString().trim()} -o %i|%T|%r|%e`]);
    expect(calls.filter((c: string) => c.startsWith("scontrol")).sort()).toEqual(["scontrol show job -o 13", "scontrol show job -o 14", "scontrol show job -o 15"]);
    expect(statuses.get("11")).toEqual({ jobId: "11", state: "RUNNING", reason: "None", exitCode: "", server: { host: "203.0.113.3", port: 31337 }, endsAt: "2026-11-25T12:02:03.000Z" });
    expect(statuses.get("12")).toEqual({ jobId: "12", state: "PENDING", reason: "Resources", exitCode: "" });
    expect(statuses.get("13")).toMatchObject({ state: "FAILED", reason: "NonZeroExitCode", exitCode: "2:0", tail: "loading\nerror: unknown option --threads\n" });
    expect(statuses.get("14")).toMatchObject({ state: "TIMEOUT", reason: "TimeLimit", exitCode: "0:15" });
    expect(statuses.get("15")).toMatchObject({ state: "MISSING" });
  });

  test("a failing squeue (controller down) is an error, never 'every job is gone'", () => {
    const bin = fakeBin({ squeue: "echo 'slurm_load_jobs error: Unable to contact slurm controller (connect failure)' >&2; exit 1" });
    const output = runScript(statusScript([{ jobId: "1", workDir: "/x" }]), bin);
    expect(() => parseStatusOutput(output)).toThrow(SlurmStatusError);
    expect(() => parseStatusOutput(output)).toThrow("Unable to contact slurm controller");
  });

  test("work folders are quoted in the script; job ids must be numbers", () => {
    const script = statusScript([{ jobId: "7", workDir: "~/svc/jobs/it's $(x)" }]);
    expect(script).toContain(`show 7 "$HOME"/'svc/jobs/it'\\''s $(x)'`);
    expect(() => statusScript([{ jobId: "7; id", workDir: "/x" }])).toThrow();
  });

  test("a port file with something odd in it is ignored", () => {
    const statuses = parseStatusOutput("@job 5|RUNNING|None|\n@port $(id) 80\n@job 6|RUNNING|None|\n@port 203.0.113.1 99999\n");
    expect(statuses.get("5")!.server).toBeUndefined();
    expect(statuses.get("6")!.server).toBeUndefined();
  });

  test("handles carry the job id and the work folder", () => {
    const handle = formatHandle({ jobId: "42", workDir: "~/svc/jobs/x:y" });
    expect(handle).toBe("42:~/svc/jobs/x:y");
    expect(parseHandle(handle)).toEqual({ jobId: "42", workDir: "~/svc/jobs/x:y" });
    expect(() => parseHandle("abc:/x")).toThrow();
  });
});

describe("Slurm states → observations → statuses", () => {
  const job = (state: string, more: Partial<JobStatus> = {}): JobStatus => ({ jobId: "1", state, reason: "None", exitCode: "", ...more });

  test("PENDING carries the scheduler's reason into the record", () => {
    const observation = observe(job("PENDING", { reason: "Resources" }));
    expect(observation).toEqual({ phase: "queued", reason: "waiting for resources to become free (Slurm: Resources)" });
    expect(nextStatus("SUBMITTED", observation, undefined)).toEqual({ status: "PENDING", reason: "waiting for resources to become free (Slurm: Resources)" });
    expect(observe(job("PENDING", { reason: "AssocGrpGRES" }))).toEqual({ phase: "queued", reason: "AssocGrpGRES (Slurm: AssocGrpGRES)" });
  });

  test("RUNNING is STARTING until /health answers, then HEALTHY", () => {
    const observation = observe(job("RUNNING", { server: { host: "203.0.113.5", port: 30000 } }));
    expect(observation).toEqual({ phase: "running", host: "203.0.113.5", port: 30000 });
    expect(nextStatus("PENDING", observation, false).status).toBe("STARTING");
    expect(nextStatus("STARTING", observation, true).status).toBe("HEALTHY");
    expect(observe(job("RUNNING"))).toEqual({ phase: "running", host: "", port: null });
  });

  test("CANCELLED → STOPPED, TIMEOUT → TIMEOUT, FAILED / OUT_OF_MEMORY / NODE_FAIL → FAILED with the reason", () => {
    expect(nextStatus("HEALTHY", observe(job("CANCELLED")), undefined).status).toBe("STOPPED");
    expect(nextStatus("STOPPING", observe(job("CANCELLED")), undefined)).toEqual({ status: "STOPPED", reason: "stopped by its creator" });
    const timeout = nextStatus("HEALTHY", observe(job("TIMEOUT", { reason: "TimeLimit" })), undefined);
    expect(timeout.status).toBe("TIMEOUT");
    expect(timeout.reason).toContain("--time limit");
    const failed = nextStatus("STARTING", observe(job("FAILED", { reason: "NonZeroExitCode", exitCode: "2:0", tail: "bad option\n" })), undefined);
    expect(failed).toEqual({ status: "FAILED", reason: "the Slurm job FAILED (NonZeroExitCode), exit code 2:0; last output:\nbad option" });
    const missing = observe(job("FAILED", { reason: "NonZeroExitCode", exitCode: "3:0", tail: "svc: cannot start: the svc runtime abc is not on node n1: /h/bun is missing there.\n" }));
    expect(missing).toMatchObject({ reason: "the svc runtime abc is not on node n1: /h/bun is missing there. (the Slurm job FAILED (NonZeroExitCode), exit code 3:0); last output:\nsvc: cannot start: the svc runtime abc is not on node n1: /h/bun is missing there." });
    const oom = nextStatus("HEALTHY", observe(job("OUT_OF_MEMORY", { exitCode: "0:125" })), undefined);
    expect(oom.status).toBe("FAILED");
    expect(oom.reason).toContain("--mem");
    expect(nextStatus("HEALTHY", observe(job("NODE_FAIL")), undefined).reason).toContain("node failed");
    expect(nextStatus("HEALTHY", observe(job("COMPLETED", { exitCode: "0:0" })), undefined).status).toBe("FAILED");
  });

  test("a job Slurm no longer knows is missing", () => {
    expect(observe(job("MISSING"))).toEqual({ phase: "missing" });
    expect(observe(undefined)).toEqual({ phase: "missing" });
  });
});
