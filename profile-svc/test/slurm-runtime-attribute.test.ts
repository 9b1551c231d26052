/** The slurm profile attribute `runtime` (bare | apptainer): read, written back, and refused when it is anything else. */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError } from "@svc/contracts";
import { ProfileService } from "../src/profiles/service";

const root = mkdtempSync(join(tmpdir(), "svc-profile-rt-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function service(content: string) {
  mkdirSync(join(root, "svc"), { recursive: true });
  const file = join(root, "svc", "profiles.cfg");
  writeFileSync(file, content);
  return { file, profiles: new ProfileService({ profilesFile: file, userHome: root, env: { HOME: root, PATH: process.env.PATH } }) };
}

const base = `[default]\nschema = local\nhome_dir = ${root}/h\ncache_dir = ${root}\n\n[hpc]\nschema = slurm\nhost = login.example\nuser = me\nhome = ~/svc\ncache = /shared\n`;

test("runtime = apptainer is read; a profile without it has none (bare by default)", async () => {
  const { profiles } = service(`${base}runtime = apptainer\n`);
  expect(await profiles.get("hpc")).toMatchObject({ schema: "slurm", runtime: "apptainer" });
  const plain = service(base).profiles;
  expect((await plain.get("hpc")) as object).not.toHaveProperty("runtime");
});

test("an unknown runtime in the file is reported with its line", async () => {
  const { profiles } = service(`${base}runtime = docker\n`);
  const error = await profiles.list().then(
    () => undefined,
    (e) => e as ApiError,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect(error!.message).toContain('runtime "docker" is not one of bare, apptainer');
  expect(error!.message).toContain("line 12");
});

test("update refuses an unknown runtime and leaves the file as it was", async () => {
  const { profiles, file } = service(base);
  const refused = await profiles.update("hpc", { runtime: "singularity" }).then(
    () => undefined,
    (e) => e as ApiError,
  );
  expect(refused?.status).toBe(400);
  expect(refused?.message).toContain('runtime "singularity" is not one of bare, apptainer');
  expect(readFileSync(file, "utf8")).not.toContain("runtime =");
});
