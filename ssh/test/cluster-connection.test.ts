/**
 * ClusterConnection, the one way svc reaches a cluster: the same commands, streams and file
 * transfers over SSH to a real sshd (the test host) and on this machine (`host = localhost`), and
 * the profile → connection mapping.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { SlurmProfile } from "@svc/contracts";
import { eventually, startSshTestHost, writeKeyPair, type SshTestHost } from "@svc/testing";
import { clusterConnection, LocalConnection, SshConnection, SshError, Tunnels, type ClusterConnection } from "../src";

const local = mkdtempSync(join(tmpdir(), "svc-cluster-connection-"));
let host: SshTestHost;
let profile: SlurmProfile;
const ssh = { userHome: local, env: { HOME: local } };

beforeAll(async () => {
  const key = writeKeyPair(join(local, ".ssh"));
  host = await startSshTestHost({ authorizedKeys: [key.publicKey] });
  profile = { name: "cluster", schema: "slurm", host: "127.0.0.1", port: host.port, user: "svc", home: "~/svc", cache: "/shared/cache" };
}, 240_000);

afterAll(async () => {
  await host?.stop();
  rmSync(local, { recursive: true, force: true });
});

/** A tar stream of a small tree made here: what installing a runtime on a cluster sends. */
function tarOf(files: Record<string, string>): { stream: ReadableStream<Uint8Array>; size: number } {
  const dir = mkdtempSync(join(local, "tree-"));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const tar = Bun.spawnSync(["tar", "-C", dir, "-cf", "-", "."], { stdout: "pipe" }).stdout;
  return { stream: new Response(new Uint8Array(tar)).body!, size: tar.length };
}

async function exercise(connection: ClusterConnection, folder: string) {
  const result = await connection.run(`printf '%s' "$((6 * 7))"; echo oops >&2; exit 3`);
  expect(result).toMatchObject({ code: 3, stdout: "42", stderr: "oops\n" });
  expect(await new Response(await connection.stream("printf 'a\\nb\\n'")).text()).toBe("a\nb\n");

  const { stream, size } = tarOf({ "bin/tool": "#!/bin/sh\necho tool ran\n", "README": "runtime tree\n" });
  const sent = await connection.send(`mkdir -p ${folder} && tar -xf - -C ${folder} && chmod +x ${folder}/bin/tool`, stream);
  expect(sent.code).toBe(0);
  expect(sent.bytesSent).toBe(size);
  expect((await connection.run(`cat ${folder}/README; ${folder}/bin/tool`)).stdout).toBe("runtime tree\ntool ran\n");

  const written = await connection.send(`cat > ${folder}/job.sh`, new TextEncoder().encode("echo 'quoted $(not run)'\n"));
  expect(written).toMatchObject({ code: 0, bytesSent: 25 });
  expect((await connection.run(`sh ${folder}/job.sh`)).stdout).toBe("quoted $(not run)\n");
  expect(connection.bytesSent).toBe(size + 25);
}

describe("ClusterConnection", () => {
  test("over SSH: commands, a streamed output and file transfers share one connection, counted", async () => {
    const connection = clusterConnection(profile, ssh);
    try {
      expect(connection).toBeInstanceOf(SshConnection);
      expect(connection.local).toBe(false);
      await exercise(connection, "/home/svc/transfer");
      expect(connection.roundTrips).toBe(6);
      expect(connection.hostKey).toMatchObject({ type: "ssh-ed25519", status: "added" });
      const check = await host.execAsUser("cat /home/svc/transfer/README");
      expect(check.output).toBe("runtime tree\n");
    } finally {
      connection.close();
    }
  });

  test("host = localhost: the same calls run on this machine, without SSH", async () => {
    const connection = clusterConnection({ ...profile, host: "localhost", port: undefined }, ssh);
    expect(connection).toBeInstanceOf(LocalConnection);
    expect(connection.local).toBe(true);
    const folder = join(local, "onsite");
    await exercise(connection, folder);
    expect(readFileSync(join(folder, "README"), "utf8")).toBe("runtime tree\n");
    expect(connection.hostKey).toBeUndefined();
    await expect(connection.forward("127.0.0.1", 1)).rejects.toThrow("needs no tunnels");
  });

  test("after sshd restarts the connection comes back by itself, and a tunnel connection or a command made while it is down waits for it", async () => {
    const connection = clusterConnection(profile, ssh);
    const tunnels = new Tunnels(connection);
    // Login sessions of the user on the server: one per open connection.
    const sessions = async () => Number((await host.container.exec(["pgrep", "-c", "-u", "svc", "sshd"])).output.trim());
    try {
      await connection.run("true");
      // (The earlier tests' connections may take a moment to end.)
      await eventually(async () => (await sessions()) === 1, 10_000, "only this connection to be open");
      await (await host.killSshd()).back;
      // Nothing is asked of the connection: it is re-opened on its own.
      await eventually(async () => (await sessions()) === 1, 10_000, "the connection to be re-opened");

      // The tunnel leads to sshd itself, whose greeting shows the connection went through.
      const localPort = await tunnels.ensure("sshd", "127.0.0.1", host.port);
      // Asked right after sshd is killed (it is down for at least 0.2 s).
      const { back } = await host.killSshd();
      const greeting = await new Promise<string>((resolve, reject) => {
        const socket = connect(localPort, "127.0.0.1");
        socket.once("data", (data) => {
          socket.destroy();
          resolve(data.toString("latin1"));
        });
        socket.once("close", () => reject(new Error("the tunnel closed the connection instead of waiting")));
      });
      expect(greeting).toStartWith("SSH-2.0-");
      await back;

      // A command asked right after sshd is killed waits for the connection too, instead of failing.
      const again = await host.killSshd();
      expect((await connection.run("echo back")).stdout.trim()).toBe("back");
      await again.back;
    } finally {
      tunnels.closeAll();
      connection.close();
    }
  });

  test("sshd down for seconds: a command waiting for the connection runs within 1.5 s of sshd being back, not at the next doubled wait", async () => {
    const connection = clusterConnection(profile, ssh);
    try {
      await connection.run("true");
      // Down for 4 s: on the retry schedule alone the attempts after the drop are at 1.5, 3.1 and 6.3 s.
      const { back } = await host.killSshd({ downMs: 4000 });
      await Bun.sleep(1500);
      const ran = connection.run("echo back").then((result) => ({ said: result.stdout.trim(), at: Date.now() }));
      const backAt = await back;
      const { said, at } = await ran;
      expect(said).toBe("back");
      expect(at - backAt).toBeLessThan(1500);
    } finally {
      connection.close();
    }
  });

  test("an unreachable host is an SshError of kind unreachable, and the next attempt waits", async () => {
    const connection = clusterConnection({ ...profile, port: 9 }, { ...ssh, timeoutMs: 5000 });
    try {
      const first = await connection.run("true").catch((e) => e);
      expect(first).toBeInstanceOf(SshError);
      expect(first.kind).toBe("unreachable");
      const second = await connection.run("true").catch((e) => e);
      expect(second.message).toContain("svc tries again, waiting longer after each failure");
    } finally {
      connection.close();
    }
  });
});
