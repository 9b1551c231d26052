/**
 * The Slurm engine over a stand-in connection: its scripts run here with fake sbatch/squeue/
 * scontrol/scancel on the PATH, and "forwarding" connects on loopback, so submit, the one-round-trip
 * status pass for many services, the tunnels, stop, logs and adopt are checked without a cluster.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import type { SlurmProfile } from "@svc/contracts";
import { LocalConnection } from "@svc/ssh";
import { SlurmEngine, slurmWorkDir } from "../src/engines/slurm/slurm-engine";
import type { LaunchSpec } from "../src/engines/engine";
import { EngineError } from "../src/engines/engine-error";
import { engineFailure } from "../src/services/engine-failure";

const root = mkdtempSync(join(tmpdir(), "svc-slurm-engine-"));
const bin = join(root, "bin");
const state = join(root, "state");
mkdirSync(bin);
mkdirSync(state);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function fake(name: string, body: string) {
  writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}
// sbatch: refuses partition "nosuch" like Slurm does, else records the job as RUNNING.
fake("sbatch", `grep -q -- '--partition=nosuch' "$2" && { echo 'sbatch: error: invalid partition specified: nosuch' >&2; echo 'sbatch: error: Batch job submission failed: Invalid partition name specified' >&2; exit 1; }
n=$(( $(cat ${state}/next 2>/dev/null || echo 100) + 1 )); echo $n > ${state}/next
c=$(sed -n 's/^#SBATCH --comment=//p' "$2")
echo "$n|RUNNING|None|$c" >> ${state}/jobs; echo "$n"`);
fake("squeue", `case "$*" in *%k*) cut -d'|' -f1,4 ${state}/jobs;; *) cut -d'|' -f1-3 ${state}/jobs;; esac 2>/dev/null; true`);
fake("scontrol", "exit 1");
fake("scancel", `sed -i "s/^$1|RUNNING|/$1|CANCELLED|/" ${state}/jobs`);

/** The cluster's commands run here, with the fake Slurm commands on the PATH; "forwarding" connects on loopback. */
class FakeConnection extends LocalConnection {
  override readonly local = false;
  forwards: string[] = [];
  constructor() {
    super({ env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root } });
  }
  override forward(host: string, port: number): Promise<Duplex> {
    this.forwards.push(`${host}:${port}`);
    return new Promise((resolve, reject) => {
      const socket: Socket = connect(port, "127.0.0.1", () => resolve(socket));
      socket.once("error", reject);
    });
  }
}

const profile: SlurmProfile = { name: "hpc", schema: "slurm", host: "login.example", user: "me", home: "~/svc", cache: "/shared" };
const connection = new FakeConnection();
const engine = new SlurmEngine(profile.name, async () => profile, () => connection);
afterAll(() => engine.close());

function spec(job: LaunchSpec["job"] = {}): LaunchSpec {
  const serviceId = crypto.randomUUID();
  return { serviceId, name: "t", task: "text-generation", image: "svc-text-generation:latest", args: [], modelDir: "/m", job };
}

describe("SlurmEngine", () => {
  test("submit writes exactly the rendered script into <home>/jobs/<id>/ and records the job id, in one round trip", async () => {
    const s = spec({ time: "10" });
    const before = connection.roundTrips;
    const submitted = await engine.submit(s);
    expect(connection.roundTrips - before).toBe(1);
    expect(submitted.handle).toMatch(new RegExp(`^\\d+:~/svc/jobs/${s.serviceId}$`));
    expect(slurmWorkDir(profile, s.serviceId)).toBe(`~/svc/jobs/${s.serviceId}`);
    expect(readFileSync(join(root, "svc", "jobs", s.serviceId, "job.sh"), "utf8")).toBe(await engine.render(s));
  });

  test("sbatch's own error is the API error's message (400)", async () => {
    const error = await engine.submit(spec({ partition: "nosuch" })).catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.kind).toBe("refused");
    const answer = engineFailure(error, "submit");
    expect(answer.status).toBe(400);
    expect(answer.code).toBe("sbatch_refused");
    expect(answer.message).toContain("invalid partition specified: nosuch");
  });

  test("twenty services: one round trip per status pass; running ones get a 127.0.0.1 tunnel to their node's port", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
    try {
      const handles: string[] = [];
      for (let i = 0; i < 20; i++) {
        const s = spec();
        handles.push((await engine.submit(s)).handle);
        writeFileSync(join(root, "svc", "jobs", s.serviceId, "port"), `203.0.113.7 ${server.port}\n`);
      }
      const before = connection.roundTrips;
      const observations = await engine.inspect(handles);
      expect(connection.roundTrips - before).toBe(1);
      const first = observations.get(handles[0])!;
      expect(first).toMatchObject({ phase: "running", host: "127.0.0.1" });
      if (first.phase !== "running") throw new Error("not running");
      expect(first.port).not.toBe(server.port);
      expect(await (await fetch(`http://127.0.0.1:${first.port}/`)).text()).toBe("ok");
      expect(connection.forwards).toContain(`203.0.113.7:${server.port}`);
      // The same tunnel on the next pass; stop → cancelled → the tunnel closes.
      expect((await engine.inspect([handles[0]])).get(handles[0])).toEqual(first);
      await engine.stop(handles[0]);
      expect((await engine.inspect([handles[0]])).get(handles[0])).toMatchObject({ phase: "exited", outcome: "cancelled" });
      expect(await fetch(`http://127.0.0.1:${first.port}/`).then(() => "answered", () => "closed")).toBe("closed");
    } finally {
      server.stop(true);
    }
  });

  test("adopt finds a job by the service id in its comment", async () => {
    const s = spec();
    const { handle } = await engine.submit(s);
    const found = await engine.adopt([s.serviceId, crypto.randomUUID()]);
    expect([...found]).toEqual([[s.serviceId, handle]]);
  });

  test("logs read the job's output file", async () => {
    const s = spec();
    const { handle } = await engine.submit(s);
    writeFileSync(join(root, "svc", "jobs", s.serviceId, "output.log"), "one\ntwo\nthree\n");
    expect(await new Response(await engine.logs(handle, { follow: false, tail: 2 })).text()).toBe("two\nthree\n");
  });
});

describe("host = localhost", () => {
  test("commands and streams run on this machine, without SSH", async () => {
    const local = new LocalConnection();
    expect(await local.run("printf '%s' \"$((6 * 7))\"; exit 3")).toMatchObject({ code: 3, stdout: "42", stderr: "" });
    expect(await new Response(await local.stream("printf 'a\\nb\\n'")).text()).toBe("a\nb\n");
    expect(local.roundTrips).toBe(2);
  });
});
