import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError } from "@svc/contracts";
import { ProfileService } from "../src/profiles/service";

const root = mkdtempSync(join(tmpdir(), "svc-profile-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** A fresh home with a cache folder, and a service on its profiles.cfg. */
function fixture(content?: string) {
  const home = join(root, `h${++counter}`);
  mkdirSync(join(home, "cache"), { recursive: true });
  const file = join(home, "svc", "profiles.cfg");
  if (content !== undefined) {
    mkdirSync(join(home, "svc"), { recursive: true });
    writeFileSync(file, content);
  }
  return { home, file, service: new ProfileService({ profilesFile: file, userHome: home, env: { HOME: home, PATH: process.env.PATH } }) };
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected an ApiError");
}

describe("profiles.cfg", () => {
  test("a file written by Blackfish (type =, home/cache) is read, and rewritten under the current names with comments kept", async () => {
    const blackfish = `# Blackfish profiles\n[default]\ntype = local\nhome = /opt/bf/home\ncache = /opt/bf/cache\n\n[hpc]\ntype = slurm\nhost = della.example\nuser = alice\nhome = /scratch/alice/.blackfish\ncache = /scratch/shared\n# keep me\nextra = kept\n`;
    const { service, file, home } = fixture(blackfish);
    expect(await service.list()).toEqual([
      { name: "default", schema: "local", home_dir: "/opt/bf/home", cache_dir: "/opt/bf/cache" },
      { name: "hpc", schema: "slurm", host: "della.example", user: "alice", home: "/scratch/alice/.blackfish", cache: "/scratch/shared" },
    ]);
    await service.update("default", { home_dir: join(home, "new-home"), cache_dir: join(home, "cache") });
    expect(readFileSync(file, "utf8")).toBe(
      `# Blackfish profiles\n[default]\nschema = local\nhome_dir = ${join(home, "new-home")}\ncache_dir = ${join(home, "cache")}\n\n[hpc]\ntype = slurm\nhost = della.example\nuser = alice\nhome = /scratch/alice/.blackfish\ncache = /scratch/shared\n# keep me\nextra = kept\n`,
    );
  });

  test("a malformed file is reported with its line number and left byte for byte unchanged", async () => {
    const broken = "[default]\nschema = local\nhome_dir = /a\ncache_dir = /b\n\n[other]\nthis line is wrong\n";
    const { service, file, home } = fixture(broken);
    const before = readFileSync(file);
    for (const attempt of [
      service.list(),
      service.get("default"),
      service.create({ name: "x", schema: "local", home_dir: join(home, "x"), cache_dir: join(home, "cache") }),
      service.update("default", { home_dir: join(home, "y") }),
      service.remove("other"),
    ]) {
      const error = await apiError(attempt);
      expect(error.status).toBe(409);
      expect(error.code).toBe("profiles_file_invalid");
      expect(error.message).toContain(`${file} line 7`);
      expect(error.message).toContain("this line is wrong");
      expect(error.details).toEqual({ file, line: 7 });
    }
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  test("a section that is not a valid profile names its line too", async () => {
    const { service } = fixture("[default]\nschema = local\nhome_dir = /a\ncache_dir = /b\n\n[k8s]\nschema = kubernetes\n");
    const error = await apiError(service.list());
    expect(error.message).toContain("line 7");
    expect(error.message).toContain('schema "kubernetes": use local or slurm');
    const missing = await apiError(fixture("[default]\nschema = local\nhome_dir = /a\n").service.list());
    expect(missing.message).toMatch(/line 1: profile \[default\] \(schema local\) needs "cache_dir = …"/);
  });

  test("concurrent adds in one process don't lose one another", async () => {
    const { service, home, file } = fixture();
    await service.create({ name: "default", schema: "local", home_dir: join(home, "d"), cache_dir: join(home, "cache") });
    const names = Array.from({ length: 20 }, (_, i) => `p${i}`);
    await Promise.all(names.map((name) => service.create({ name, schema: "local", home_dir: join(home, name), cache_dir: join(home, "cache") })));
    expect((await service.list()).map((p) => p.name).sort()).toEqual(["default", ...names].sort());
    expect(readFileSync(file, "utf8").match(/^\[/gm)?.length).toBe(21);
  });

  test("concurrent adds from several processes (app and CLI) don't lose one another", async () => {
    const { service, home, file } = fixture();
    await service.create({ name: "default", schema: "local", home_dir: join(home, "d"), cache_dir: join(home, "cache") });
    const script = join(import.meta.dir, "..", "src", "profiles", "service.ts");
    const code = `const { ProfileService } = await import(${JSON.stringify(script)});
      const s = new ProfileService({ profilesFile: process.argv[1], userHome: process.argv[2] });
      const id = process.argv[3];
      await Promise.all([0, 1, 2, 3].map((i) => s.create({ name: "w" + id + "-" + i, schema: "local", home_dir: process.argv[2] + "/w" + id + i, cache_dir: process.argv[2] + "/cache" })));`;
    const workers = [0, 1, 2, 3].map((id) =>
      Bun.spawn([process.execPath, "-e", code, file, home, String(id)], { stdout: "pipe", stderr: "pipe", cwd: join(import.meta.dir, "..") }),
    );
    const codes = await Promise.all(workers.map((w) => w.exited));
    for (const worker of workers) if (worker.exitCode !== 0) console.error(await new Response(worker.stderr).text());
    expect(codes).toEqual([0, 0, 0, 0]);
    expect((await service.list()).length).toBe(17);
  });
});
