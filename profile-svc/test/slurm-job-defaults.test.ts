/** A slurm profile's job defaults (account, partition, qos): read from profiles.cfg, written back, hostile values refused. */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, type SlurmProfile } from "@svc/contracts";
import { ProfileService } from "../src/profiles/service";
import { sectionValues } from "../src/profiles/codec";

const root = mkdtempSync(join(tmpdir(), "svc-profile-defaults-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function service(content: string) {
  mkdirSync(join(root, "svc"), { recursive: true });
  const file = join(root, "svc", "profiles.cfg");
  writeFileSync(file, content);
  return new ProfileService({ profilesFile: file, userHome: root, env: { HOME: root, PATH: process.env.PATH } });
}

const base = `[default]\nschema = local\nhome_dir = ${root}/h\ncache_dir = ${root}\n\n[hpc]\nschema = slurm\nhost = login.example\nuser = me\nhome = ~/svc\ncache = /shared\n`;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error) => error as ApiError,
  );

test("account, partition and qos are read from the file, and written back under their names", async () => {
  const profile = await service(`${base}account = proj-1\npartition = gpu\nqos = high.prio\n`).get("hpc");
  expect(profile).toMatchObject({ account: "proj-1", partition: "gpu", qos: "high.prio" });
  const written = sectionValues(profile).values.filter(([key]) => ["account", "partition", "qos"].includes(key));
  expect(written).toEqual([
    ["account", "proj-1"],
    ["partition", "gpu"],
    ["qos", "high.prio"],
  ]);
  const plain = (await service(base).get("hpc")) as SlurmProfile;
  expect([plain.account, plain.partition, plain.qos]).toEqual([undefined, undefined, undefined]);
});

test("a value Slurm would not take, in the file, is reported with its line", async () => {
  const error = await failure(service(`${base}account = a;id\n`).list());
  expect(error!.message).toContain('account "a;id" is not a Slurm account name');
  expect(error!.message).toContain("line 12");
});

test("create and update refuse hostile values before any check runs", async () => {
  const profiles = service(base);
  for (const value of ["a b", "$(id)", "x;y", "-x", "a'b"]) {
    const error = await failure(profiles.update("hpc", { qos: value }));
    expect(error!.status).toBe(400);
    expect(error!.message).toBe(`qos ${JSON.stringify(value)}: a Slurm qos name has letters, digits, '_', '.' and '-' only.`);
  }
  const local = await failure(profiles.update("default", { account: "proj" }));
  expect(local!.message).toContain("account is not an attribute of a local profile");
});
