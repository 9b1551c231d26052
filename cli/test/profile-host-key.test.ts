/**
 * A slurm profile's cluster seen for the first time: the CLI shows its host key's fingerprint and
 * records it only once the user accepts it (a terminal answer, --yes, or --host-key-fingerprint
 * checked beforehand), against a real sshd (images/slurm-test, 127.0.0.1 only).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { freePort, runSvc, startSshTestHost, tempHome, writeKeyPair, type SshTestHost } from "@svc/testing";

const home = tempHome("svc-cli-host-key-");
let host: SshTestHost;
let env: Record<string, string>;
const knownHosts = join(home, ".ssh", "known_hosts");
const profilesFile = join(home, "svc", "profiles.cfg");

beforeAll(async () => {
  const key = writeKeyPair(join(home, ".ssh"));
  host = await startSshTestHost({ authorizedKeys: [key.publicKey] });
  mkdirSync(join(home, "cache"));
  env = { HOME: home, SVC_HOME_DIR: join(home, "svc"), SVC_HOST: "127.0.0.1", SVC_PORT: String(await freePort()), SSH_AUTH_SOCK: "" };
  expect((await runSvc(["init", "--home-dir", join(home, "local"), "--cache-dir", join(home, "cache"), "--yes"], env)).code).toBe(0);
}, 300_000);

afterAll(async () => {
  await host?.stop();
  rmSync(home, { recursive: true, force: true });
});

const add = (name: string, extra: string[] = []) =>
  runSvc(["profile", "add", "--name", name, "--schema", "slurm", "--host", "127.0.0.1", "--port", String(host.port), "--user", "svc", "--home", `~/${name}`, "--cache", "/shared/cache", ...extra], env);

test("without a terminal and without --yes nothing is recorded or created; the message gives the fingerprint to confirm", async () => {
  const refused = await add("unconfirmed");
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(`The authenticity of host '[127.0.0.1]:${host.port}' can't be established`);
  const fingerprint = refused.stderr.match(/--host-key-fingerprint (SHA256:\S+)\./)?.[1];
  expect(fingerprint).toMatch(/^SHA256:/);
  expect(existsSync(knownHosts)).toBe(false);
  expect(readFileSync(profilesFile, "utf8")).not.toContain("[unconfirmed]");

  const wrong = await add("wrong", ["--host-key-fingerprint", `SHA256:${"B".repeat(43)}`]);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain("the one confirmed");
  expect(existsSync(knownHosts)).toBe(false);

  const pinned = await add("pinned", ["--host-key-fingerprint", fingerprint!]);
  expect(pinned.code).toBe(0);
  expect(pinned.stderr).toContain(`Permanently added '[127.0.0.1]:${host.port}'`);
  expect(readFileSync(knownHosts, "utf8")).toStartWith(`[127.0.0.1]:${host.port} ssh-ed25519 `);
});

test("--yes accepts the key shown, after printing its fingerprint", async () => {
  rmSync(knownHosts);
  const accepted = await add("accepted", ["--yes"]);
  expect(accepted.code).toBe(0);
  expect(accepted.stderr).toMatch(/Accepting SHA256:\S+ for \[127\.0\.0\.1\]:\d+ \(--yes\)\./);
  expect(existsSync(knownHosts)).toBe(true);
  expect(accepted.stdout).toContain("Created profile accepted (slurm).");
});
