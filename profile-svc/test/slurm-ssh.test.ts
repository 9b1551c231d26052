/**
 * Slurm profiles against a real sshd (images/slurm-test in a container, host networking, 127.0.0.1
 * only): success, ~/.ssh/config aliases, unreachable host, refused key, changed host key, missing
 * cache folder; and `host = localhost` (the same checks without SSH).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError } from "@svc/contracts";
import { ProfileService } from "../src/profiles/service";
import { freeLoopbackPort, startSshTestHost, writeKeyPair, type KeyPair, type SshTestHost } from "@svc/testing";

const home = mkdtempSync(join(tmpdir(), "svc-slurm-ssh-"));
const sshDir = join(home, ".ssh");
const knownHosts = join(sshDir, "known_hosts");
const file = join(home, "svc", "profiles.cfg");
let key: KeyPair;
let aliasKey: KeyPair;
let wrongKey: KeyPair;
let host: SshTestHost;
let service: ProfileService;
let confirmedFingerprint = "";
const env = { HOME: home, PATH: "/usr/local/bin:/usr/bin:/bin" }; // no SSH_AUTH_SOCK: only the keys made here

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return error;
  }
  throw new Error("expected an ApiError");
}

const slurm = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  schema: "slurm",
  host: "127.0.0.1",
  port: host.port,
  user: "svc",
  home: "~/svc-home",
  cache: "/shared/cache",
  ...extra,
});

beforeAll(async () => {
  key = writeKeyPair(sshDir, "id_ed25519");
  aliasKey = writeKeyPair(sshDir, "alias_key");
  wrongKey = writeKeyPair(join(home, "other"), "not_authorized");
  host = await startSshTestHost({ authorizedKeys: [key.publicKey, aliasKey.publicKey] });
  service = new ProfileService({ profilesFile: file, userHome: home, env, sshTimeoutMs: 10_000 });
  mkdirSync(join(home, "cache"));
  await service.create({ name: "default", schema: "local", home_dir: join(home, "local"), cache_dir: join(home, "cache") });
}, 300_000);

afterAll(async () => {
  await host?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe("slurm profiles over SSH (real sshd)", () => {
  test("a new host is refused with its key's fingerprint, nothing recorded or created, until that fingerprint is confirmed", async () => {
    const unconfirmed = await apiError(service.create(slurm("cluster") as never));
    expect(unconfirmed.status).toBe(422);
    expect(unconfirmed.code).toBe("ssh_host_key_unknown");
    expect(unconfirmed.message).toContain(`The authenticity of host '[127.0.0.1]:${host.port}' can't be established`);
    const details = unconfirmed.details as { field: string; name: string; type: string; fingerprint: string };
    expect(details).toMatchObject({ field: "host", name: `[127.0.0.1]:${host.port}`, type: "ssh-ed25519" });
    expect(details.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(unconfirmed.message).toContain(details.fingerprint);
    const wrong = await apiError(service.create(slurm("cluster", { host_key_fingerprint: `SHA256:${"A".repeat(43)}` }) as never));
    expect(wrong.code).toBe("ssh_host_key_unknown");
    expect(wrong.message).toContain("the one confirmed");
    expect(existsSync(knownHosts)).toBe(false);
    expect((await host.execAsUser("test -e /home/svc/svc-home")).exitCode).not.toBe(0);
    expect(readFileSync(file, "utf8")).not.toContain("[cluster]");
    confirmedFingerprint = details.fingerprint;
  });

  test("success: connects with the key from ~/.ssh, records the confirmed host key, creates home, checks cache and commands", async () => {
    const change = await service.create(slurm("cluster", { host_key_fingerprint: confirmedFingerprint }) as never);
    expect(change.profile).toEqual({ name: "cluster", schema: "slurm", host: "127.0.0.1", port: host.port, user: "svc", home: "~/svc-home", cache: "/shared/cache" });
    expect(change.hostKey).toMatchObject({ status: "added", type: "ssh-ed25519", name: `[127.0.0.1]:${host.port}`, file: knownHosts });
    expect(change.notices[0]).toContain(`Permanently added '[127.0.0.1]:${host.port}' (ED25519, SHA256:`);
    expect(change.notices).toContain("Created home ~/svc-home on 127.0.0.1.");
    expect(readFileSync(knownHosts, "utf8")).toMatch(new RegExp(`^\\[127\\.0\\.0\\.1\\]:${host.port} ssh-ed25519 AAAA\\S+\\n$`));
    expect((await host.execAsUser("test -d /home/svc/svc-home && test -w /home/svc/svc-home")).exitCode).toBe(0);
    expect(readFileSync(file, "utf8")).toContain(`[cluster]\nschema = slurm\nhost = 127.0.0.1\nuser = svc\nhome = ~/svc-home\ncache = /shared/cache\nport = ${host.port}\n`);

    // Again: the key is known now, known_hosts is not touched.
    const before = readFileSync(knownHosts, "utf8");
    const again = await service.update("cluster", { home: "~/svc-home2" });
    expect(again.hostKey?.status).toBe("known");
    expect(readFileSync(knownHosts, "utf8")).toBe(before);
  });

  test("a ~/.ssh/config alias gives host name, port, user and key", async () => {
    writeFileSync(join(sshDir, "config"), `Host lab\n  HostName 127.0.0.1\n  Port ${host.port}\n  User svc\n  IdentityFile ~/.ssh/alias_key\n  IdentitiesOnly yes\n`);
    try {
      const change = await service.create({ name: "lab", schema: "slurm", host: "lab", user: "svc", home: "~/lab", cache: "/shared/cache" });
      expect(change.hostKey).toMatchObject({ status: "known", name: `[127.0.0.1]:${host.port}` });
    } finally {
      rmSync(join(sshDir, "config"));
    }
  });

  test("unreachable host: says so, creates nothing", async () => {
    const before = readFileSync(file, "utf8");
    const error = await apiError(service.create(slurm("down", { port: await freeLoopbackPort() }) as never));
    expect(error.status).toBe(422);
    expect(error.code).toBe("ssh_unreachable");
    expect(error.message).toContain("connection refused");
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("refused key: says which key was refused for which user, creates nothing", async () => {
    const before = readFileSync(file, "utf8");
    const error = await apiError(service.create(slurm("wrongkey", { identity_file: wrongKey.privateKeyFile }) as never));
    expect(error.status).toBe(422);
    expect(error.code).toBe("ssh_auth_failed");
    expect(error.message).toContain(`refused the SSH key for user svc (tried ${wrongKey.privateKeyFile})`);
    expect(error.message).toContain("authorized_keys");
    expect(readFileSync(file, "utf8")).toBe(before);
    const missing = await apiError(service.create(slurm("nokey", { identity_file: join(home, "no-such-key") }) as never));
    expect(missing.code).toBe("ssh_auth_failed");
    expect(missing.message).toContain("does not exist");
  });

  test("missing cache folder: refused, and home is not created on the server", async () => {
    const before = readFileSync(file, "utf8");
    const error = await apiError(service.create(slurm("nocache", { cache: "/shared/no-such-cache", home: "~/never-made" }) as never));
    expect(error.status).toBe(422);
    expect(error.code).toBe("remote_check_failed");
    expect(error.details).toEqual({ field: "cache" });
    expect(error.message).toContain("cache /shared/no-such-cache does not exist on svc@127.0.0.1");
    expect((await host.execAsUser("test -e /home/svc/never-made")).exitCode).not.toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("paths with quotes and shell characters reach the server quoted", async () => {
    const change = await service.create(slurm("quoted", { home: "~/it's $(touch pwned) `x`" }) as never);
    expect(change.notices).toContain("Created home ~/it's $(touch pwned) `x` on 127.0.0.1.");
    expect((await host.execAsUser(`test -d "/home/svc/it's \\$(touch pwned) \\\`x\\\`" && ! test -e /home/svc/pwned`)).exitCode).toBe(0);
  });

  test("changed host key: refused with a clear warning; known_hosts and profiles.cfg stay as they were", async () => {
    const port = host.port;
    await host.stop();
    host = await startSshTestHost({ authorizedKeys: [key.publicKey, aliasKey.publicKey], port }); // new host keys, same address
    const knownBefore = readFileSync(knownHosts);
    const fileBefore = readFileSync(file);
    const error = await apiError(service.update("cluster", { cache: "/shared/cache" }));
    expect(error.status).toBe(422);
    expect(error.code).toBe("ssh_host_key_changed");
    expect(error.message).toContain(`REMOTE HOST IDENTIFICATION HAS CHANGED for [127.0.0.1]:${port}`);
    expect(error.message).toContain(`${knownHosts} line 1`);
    expect(error.message).toContain(`ssh-keygen -R '[127.0.0.1]:${port}'`);
    const created = await apiError(service.create(slurm("again") as never));
    expect(created.code).toBe("ssh_host_key_changed");
    expect(readFileSync(knownHosts).equals(knownBefore)).toBe(true);
    expect(readFileSync(file).equals(fileBefore)).toBe(true);
  });
});

describe("slurm profiles with host = localhost (svc on the cluster: the same checks, no SSH)", () => {
  test("missing sbatch/squeue is reported; with them on the PATH the profile is created", async () => {
    const bin = join(home, "fake-slurm-bin");
    mkdirSync(bin);
    const local = (path: string) => new ProfileService({ profilesFile: file, userHome: home, env: { HOME: home, PATH: path } });
    const input = { name: "onsite", schema: "slurm", host: "localhost", user: "svc", home: "~/onsite", cache: join(home, "cache") };
    const error = await apiError(local(bin).create(input));
    expect(error.code).toBe("remote_check_failed");
    expect(error.message).toContain("sbatch and squeue are not on this machine's PATH");
    expect(existsSync(join(home, "onsite"))).toBe(false);
    // scontrol too: the check reads the partitions with it (one that cannot is told in a notice).
    for (const command of ["sbatch", "squeue", "scontrol"]) {
      writeFileSync(join(bin, command), "#!/bin/sh\nexit 0\n");
      chmodSync(join(bin, command), 0o755);
    }
    const change = await local(bin).create(input);
    expect(change.notices).toEqual([`Created home ${join(home, "onsite")}.`]);
    expect(change.hostKey).toBeUndefined();
  });
});
