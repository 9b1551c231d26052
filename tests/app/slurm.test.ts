/**
 * Services on Slurm, end to end: the real application (`svc start`) and the CLI against a real
 * one-node cluster (images/slurm-test: munge, slurmctld, slurmd, sshd, the runtimes and the tiny
 * models) in a container with host networking, reached over SSH on 127.0.0.1 only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import OpenAI from "openai";
import type { SvcClient } from "@svc/client";
import type { Model, ServiceStatus } from "@svc/contracts";
import { eventually, LORA_GGUF, LORA_PEFT, runSvc, SAFETENSORS_MODEL, startAppWithCluster, SVC, TINY_REPOS, type ClusterApp, type RunningSvc, type SshTestHost, RUNTIME_UPLOAD_TEST_MS } from "@svc/testing";

const TEXT_MODEL = "svc-tiny/tiny-llama-gguf";
const PROFILE = "cluster";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

let started: ClusterApp;
let cluster: SshTestHost;
let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;
/** Submitted with --time 00:01:00 before the restart tests: checked last, once Slurm has ended it. */
let timeoutId: string;
/** The service the restart tests restart things under. */
let resilientId: string;

const status = async (id: string) => (await client.services.get(id)).status;
const reaches = (id: string, wanted: ServiceStatus, ms = 45_000) => eventually(async () => (await status(id)) === wanted, ms, `${id} to be ${wanted}`);
const onCluster = async (command: string) => {
  const result = await cluster.execAsUser(command);
  return result.output;
};
const run = (args: string[]) => runSvc(args, env);
const runOnCluster = (args: string[]) => run(["run", "-p", PROFILE, ...args]);

beforeAll(async () => {
  started = await startAppWithCluster(PROFILE);
  ({ cluster, app, client, env } = started);
}, 600_000);

afterAll(async () => {
  await started?.cleanup();
});

describe("services on Slurm, end to end", () => {
  test("model ls --refresh finds the cluster's models over SSH, and its LoRA adapters with their bases", async () => {
    const ls = await run(["model", "ls", "--refresh", "--profile", PROFILE, "--json"]);
    expect(ls.code).toBe(0);
    const rows = (JSON.parse(ls.stdout) as Model[]).filter((r) => r.profile === PROFILE);
    expect(rows.map((r) => r.repo).sort()).toEqual([...TINY_REPOS].sort());
    const adapters = Object.fromEntries(rows.filter((r) => r.adapter).map((r) => [r.repo, r]));
    expect(adapters[LORA_GGUF]).toMatchObject({ adapter: { kind: "gguf", base: TEXT_MODEL }, adapterBase: { state: "registered" } });
    expect(adapters[LORA_PEFT]).toMatchObject({ adapter: { kind: "peft", base: SAFETENSORS_MODEL }, adapterBase: { state: "registered" } });
  });

  // The first run installs the svc runtime on the cluster.
  test("run → PENDING (the scheduler's reason) → STARTING → HEALTHY → chat through the tunnel and /proxy → logs → stop → STOPPED", async () => {
    // Fill the node's memory so the service has to wait for resources.
    const blocker = (await onCluster("sbatch --parsable --mem=2000M --wrap 'sleep 300'")).trim();
    expect(blocker).toMatch(/^\d+$/);
    const started = await runOnCluster(["--mem", "6", "text-generation", TEXT_MODEL, "--name", "chat", "--api-key", "sk-slurm"]);
    expect(started.code).toBe(0);
    expect(started.stderr).toContain(`Found 1 registered revision of ${TEXT_MODEL}`);
    const id = started.stdout.trim();
    await reaches(id, "PENDING");
    await eventually(async () => /Slurm: (Resources|Priority)/.test((await client.services.get(id)).reason ?? ""), 20_000, "the scheduler's reason");
    expect((await run(["details", id])).stdout).toContain("PENDING");
    await onCluster(`scancel ${blocker}`);

    await reaches(id, "HEALTHY");
    const details = await client.services.get(id);
    expect(details.events.map((e) => e.to)).toEqual(expect.arrayContaining(["SUBMITTED", "PENDING", "STARTING", "HEALTHY"]));
    expect(details.engine).toBe("slurm");
    expect(details.host).toBe("127.0.0.1");
    expect(details.port).toBeGreaterThan(0);
    const ls = await run(["ls"]);
    expect(ls.stdout).toMatch(new RegExp(`${id.slice(0, 13)}.*HEALTHY\\s+${details.port}\\s+chat\\s+${PROFILE}`));

    const direct = new OpenAI({ baseURL: `${details.url}/v1`, apiKey: "sk-slurm" });
    const answer = await direct.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 8, temperature: 0 });
    expect(answer.usage!.completion_tokens).toBeGreaterThan(0);
    const viaProxy = new OpenAI({ baseURL: `${app.url}/proxy/${id}/v1`, apiKey: "sk-slurm" });
    const stream = await viaProxy.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 8, temperature: 0, stream: true });
    let chunks = 0;
    for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) chunks++;
    expect(chunks).toBeGreaterThan(0);
    // The gateway's one endpoint reaches it too, by model, with the service's key sent by the gateway.
    const viaV1 = await new OpenAI({ baseURL: `${app.url}/v1`, apiKey: "unused", maxRetries: 0 }).chat.completions
      .create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 4 })
      .withResponse();
    expect(viaV1.response.headers.get("x-svc-service")).toBe(id);
    expect(viaV1.data.usage!.completion_tokens).toBeGreaterThan(0);

    const logs = await run(["logs", id, "--tail", "20"]);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain("ready on http://127.0.0.1:");
    // Followed: the output so far, and the stream stays open for more until the CLI is stopped.
    const follow = Bun.spawn([SVC, "logs", id, "-f"], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
    const reader = follow.stdout.getReader();
    let followed = "";
    await eventually(async () => {
      const { value } = await reader.read();
      followed += new TextDecoder().decode(value);
      return followed.includes("ready on http://127.0.0.1:");
    }, 20_000, "svc logs -f to show the output");
    expect(follow.exitCode).toBeNull();
    follow.kill();
    await follow.exited;

    const stop = await run(["stop", id.slice(0, 13)]);
    expect(stop.stdout.trim()).toBe(`Stopped service ${id}.`);
    await reaches(id, "STOPPED");
    const jobId = details.handle!.split(":")[0];
    expect(await onCluster(`squeue -h -t all -j ${jobId} -o %T`)).toContain("CANCELLED");
    expect((await fetch(`${app.url}/proxy/${id}/v1/models`)).status).toBe(503);
    // Its running time is counted from STARTING to its stop; no GPUs were allocated (no GRES), so no GPU-hours.
    const ended = await client.services.get(id);
    expect(ended.runningSeconds).toBeGreaterThan(0);
    expect(ended.gpuHours).toBe(0);
    expect((await run(["details", id])).stdout).toMatch(/^running\s+\d+\.\d\d h, 0 GPU-hours$/m);
  }, RUNTIME_UPLOAD_TEST_MS);

  test("--dry-run prints exactly the script a real submit writes", async () => {
    const args = ["--time", "00:10:00", "--partition", "debug", "--constraint", "cpu&tiny", "--mem", "1", "text-generation", TEXT_MODEL, "--name", "same", "--max-total-tokens", "256"];
    const dry = await runOnCluster([...args.slice(0, -4), "--dry-run", ...args.slice(-4)]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("#SBATCH --constraint=cpu&tiny");
    const real = await runOnCluster(args);
    expect(real.code).toBe(0);
    const id = real.stdout.trim();
    const written = await onCluster(`cat ~/svc/jobs/${id}/job.sh`);
    const dryId = dry.stdout.match(UUID)![0];
    expect(dry.stdout.replaceAll(dryId, id).trimEnd()).toBe(written.trimEnd());
    await client.services.stop(id);
    await reaches(id, "STOPPED");
  });

  test("an unknown partition: sbatch's own error reaches the CLI", async () => {
    const refused = await runOnCluster(["--partition", "nosuch", "text-generation", TEXT_MODEL]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("invalid partition specified: nosuch");
    expect(refused.stderr).not.toContain("    at ");
  });

  test("hostile values are refused or stay inert: no command of theirs runs on the cluster", async () => {
    const marker = "/tmp/pwned";
    const jobsBefore = await onCluster("ls ~/svc/jobs | wc -l");
    const refusedArgs = [
      ["--name", `x; touch ${marker}`],
      ["--name", `$(touch ${marker})`],
      ["--partition", `debug\n#SBATCH --wrap=touch ${marker}`],
      ["--partition", `debug;touch ${marker}`],
      ["--constraint", `a'$(touch ${marker})'`],
      ["--time", "`touch /tmp/pwned`"],
    ];
    for (const [option, value] of refusedArgs) {
      const jobOption = option !== "--name";
      const words = jobOption ? [option, value, "text-generation", TEXT_MODEL] : ["text-generation", TEXT_MODEL, option, value];
      const refused = await runOnCluster(words);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(option);
    }
    expect(await onCluster("ls ~/svc/jobs | wc -l")).toBe(jobsBefore);

    // The CPU runtime's engine arguments are checked before anything reaches the cluster.
    const hostile = [`$(touch ${marker}-1)`, `; touch ${marker}-2`, `\`touch ${marker}-3\``, `'; touch ${marker}-4; '`, `"$(touch ${marker}-5)"`, `--x=$(id>${marker}-6)`, `&& touch ${marker}-7 #`];
    const refusedEngineArgs = await runOnCluster(["text-generation", TEXT_MODEL, ...hostile]);
    expect(refusedEngineArgs.code).not.toBe(0);
    expect(refusedEngineArgs.stderr).toContain("The CPU text-generation runtime accepts these llama.cpp server options");
    expect(await onCluster("ls ~/svc/jobs | wc -l")).toBe(jobsBefore);
    const quoted = (word: string) => (word.includes("'") ? word.replaceAll("'", `'\\''`) : word);

    // vLLM's arguments are checked against its own options too: hostile words as options are refused; as
    // the values of a real option they reach its job script as quoted words (a dry run on the CPU partition).
    const refusedVllm = await runOnCluster(["--gres", "1", "text-generation", TEXT_MODEL, "--dry-run", ...hostile]);
    expect(refusedVllm.code).not.toBe(0);
    expect(refusedVllm.stderr).toContain("is not an option of vLLM");
    const valued = hostile.map((word) => `--chat-template=${word}`);
    const vllm = await runOnCluster(["--gres", "1", "text-generation", TEXT_MODEL, "--dry-run", ...valued]);
    expect(vllm.code).toBe(0);
    for (const word of valued) expect(vllm.stdout).toContain(quoted(word));
    expect(Bun.spawnSync(["bash", "-n", "-c", vllm.stdout]).exitCode).toBe(0);

    // A hostile API key stays inert in a running job: it is in its 0600 api_key file, never in the script.
    const hostileKey = `$(touch\${IFS}${marker}-key)\`touch\${IFS}${marker}-8\`;'`;
    const started = await runOnCluster(["text-generation", TEXT_MODEL, "--api-key", hostileKey]);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    await reaches(id, "HEALTHY");
    const keyed = new OpenAI({ baseURL: `${app.url}/proxy/${id}/v1`, apiKey: hostileKey, maxRetries: 0 });
    expect((await keyed.models.list()).data).toHaveLength(1);
    await client.services.stop(id);
    const script = await onCluster(`cat ~/svc/jobs/${id}/job.sh`);
    expect(script).not.toContain(hostileKey);
    expect(await onCluster(`cat ~/svc/jobs/${id}/api_key`)).toBe(hostileKey);
    expect(await onCluster(`ls /tmp ~ ~/svc/jobs/${id} | grep -c pwned || true`)).toBe("0\n");
    expect(readdirSync("/tmp").filter((name) => name.startsWith("pwned"))).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  test("sshd restarted under a HEALTHY service: checked every 100 ms all along, the status stays HEALTHY and chats through /proxy and on its local port all answer within 2 s of sshd being back, on the same port", async () => {
    // The --time tests' job runs its minute through this test and the next (submitted here, not earlier: the tests before may be slow).
    const submitted = await runOnCluster(["--time", "00:01:00", "text-generation", TEXT_MODEL, "--name", "short"]);
    expect(submitted.code).toBe(0);
    timeoutId = submitted.stdout.trim();
    const started = await runOnCluster(["text-generation", TEXT_MODEL, "--name", "resilient"]);
    resilientId = started.stdout.trim();
    await reaches(resilientId, "HEALTHY");
    const before = await client.services.get(resilientId);

    // What a user checks: the recorded status, a chat through /proxy, a chat on the service's local port.
    const chat = async (base: string, maxTokens = 4) => {
      const body = JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_tokens: maxTokens, temperature: 0 });
      const answer = await fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body, signal: AbortSignal.timeout(20_000) });
      const text = await answer.text();
      return answer.status === 200 && text.includes("chat.completion") ? "answered" : `${answer.status} ${text.slice(0, 200)}`;
    };
    const checks: Record<string, () => Promise<string>> = {
      status: async () => {
        const now = await status(resilientId);
        return now === "HEALTHY" ? "answered" : `status ${now}`;
      },
      proxy: () => chat(`${app.url}/proxy/${resilientId}`),
      port: () => chat(before.url!),
    };
    for (const check of Object.values(checks)) expect(await check()).toBe("answered");

    // A user checking every 100 ms all along, without waiting for the answers before: checks on their
    // way as sshd is killed, sent while it is down (they wait for the connection) and after it is back.
    // sshd is kept down 2 s, as a restart on a busy login node can take: long enough that svc's
    // reconnection retries have spread out. Each check is measured from when sshd greets again, or
    // from when it was sent after that.
    const sent: Promise<{ kind: string; sentAt: number; answeredAt: number; said: string }>[] = [];
    const send = (kind: string, check: () => Promise<string>) => {
      const sentAt = Date.now();
      sent.push(check().then((said) => ({ kind, sentAt, answeredAt: Date.now(), said }), (error: Error) => ({ kind, sentAt, answeredAt: Date.now(), said: error.message })));
    };
    let stop = false;
    const checking = (async () => {
      while (!stop) {
        for (const [kind, check] of Object.entries(checks)) send(kind, check);
        await Bun.sleep(100);
      }
    })();
    let killedAt: number;
    let backAt: number;
    try {
      await Bun.sleep(500);
      // And a longer chat each way, still being answered as sshd goes away.
      send("proxy (longer)", () => chat(`${app.url}/proxy/${resilientId}`, 32));
      send("port (longer)", () => chat(before.url!, 32));
      const { back } = await cluster.killSshd({ downMs: 2000 });
      killedAt = Date.now();
      backAt = await back;
      await Bun.sleep(2500);
    } finally {
      stop = true;
      await checking;
    }
    const results = await Promise.all(sent);
    const at = (time: number) => `${((time - backAt) / 1000).toFixed(2)} s`;
    const late = results
      .filter((r) => r.said !== "answered" || r.answeredAt - Math.max(r.sentAt, backAt) >= 2000)
      .map((r) => `${r.kind} sent at ${at(r.sentAt)} from sshd's return: ${r.said} at ${at(r.answeredAt)}`);
    expect(late).toEqual([]);
    for (const kind of Object.keys(checks)) expect(results.filter((r) => r.kind === kind && r.sentAt >= killedAt && r.sentAt < backAt).length).toBeGreaterThan(10);

    const after = await client.services.get(resilientId);
    expect(after.port).toBe(before.port);
    expect((await fetch(`${before.url}/health`)).status).toBe(200);
  });

  test("slurmctld and the orchestrator restarted while a service is HEALTHY: tracking goes on, tunnel back, status stays right", async () => {
    const id = resilientId;
    // slurmctld restarted: tracking goes on (the controller keeps its state), and stop still works.
    await cluster.container.exec(["sh", "-c", "kill $(cat /run/slurmctld.pid); while [ -e /run/slurmctld.pid ] && kill -0 $(cat /run/slurmctld.pid) 2>/dev/null; do sleep 0.1; done; /usr/sbin/slurmctld"]);
    await eventually(async () => (await onCluster("squeue -h -o %T")).includes("RUNNING"), 30_000, "slurmctld to answer again");
    expect(await status(id)).toBe("HEALTHY");

    // The orchestrator killed: restarted by the supervisor, it reconnects, re-opens a tunnel and records its port.
    process.kill(app.lock().components["orchestrator-svc"].pid!, "SIGKILL");
    await eventually(async () => {
      const now = await client.services.get(id);
      return now.status === "HEALTHY" && (await fetch(`${app.url}/proxy/${id}/health`)).status === 200;
    }, 30_000, "the service to be reachable through /proxy again");
    await client.services.stop(id);
    await reaches(id, "STOPPED");
  });

  // Slurm enforces --time every 30 s, so a one-minute job ends 60–90 s after it starts: the wait
  // is split over two tests, each within the per-test limit.
  test("--time 00:01:00: before its limit the service stays HEALTHY", async () => {
    const handle = (await client.services.get(timeoutId)).handle!;
    const elapsed = async () => {
      const [minutes, seconds] = (await onCluster(`squeue -h -j ${handle.split(":")[0]} -o %M`)).trim().split(":").map(Number);
      return minutes * 60 + seconds;
    };
    expect(await onCluster(`squeue -h -j ${handle.split(":")[0]} -o %l`)).toContain("1:00");
    await eventually(async () => (await elapsed()) >= 45, 50_000, "the timed job to run 45 s");
    expect(await status(timeoutId)).toBe("HEALTHY");
  });

  test("--time 00:01:00 then ends in TIMEOUT", async () => {
    await reaches(timeoutId, "TIMEOUT", 58_000);
    expect((await client.services.get(timeoutId)).reason).toContain("--time limit");
  });
});
