/**
 * The package boundaries of the repository (docs/architecture.md): every workspace package has an
 * entry point and an `exports` map, and no tracked .ts file reaches into another package except
 * through what that package exports. Reads the import statements of every tracked .ts file.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { packageOf, readWorkspaces, specifiers, type Workspace } from "./workspaces";

const ROOT = resolve(import.meta.dir, "..", "..");
const workspaces = readWorkspaces(ROOT);
const byName = new Map(workspaces.map((w) => [w.name, w]));
const tracked = Bun.spawnSync(["git", "ls-files", "-z", "--", "*.ts"], { cwd: ROOT })
  .stdout.toString()
  .split("\0")
  .filter((file) => file && existsSync(join(ROOT, file)));

/** What is wrong with `specifier` imported from `file` (owned by `owner`), or undefined. */
function violation(file: string, owner: Workspace | undefined, specifier: string): string | undefined {
  if (specifier.startsWith(".")) {
    const target = relative(ROOT, resolve(ROOT, dirname(file), specifier));
    const targetOwner = packageOf(workspaces, target);
    // A manifest is public by nature (e.g. the version in the root package.json).
    if (targetOwner?.dir === owner?.dir || target.endsWith("package.json")) return undefined;
    return `${specifier} reaches into ${targetOwner ? targetOwner.name : "code outside every package"}: import ${targetOwner ? `"${targetOwner.name}"` : "it through a package"} instead`;
  }
  const match = specifier.match(/^(@svc\/[^/]+)(?:\/(.+))?$/);
  if (!match) return undefined;
  const [, name, sub] = match;
  const target = byName.get(name);
  if (!target) return `${specifier}: no workspace package is named ${name}`;
  if (sub !== undefined && !(`./${sub}` in target.exports)) return `${specifier}: ${name} does not export ./${sub} (its exports: ${Object.keys(target.exports).join(", ")})`;
  if (owner && owner.name !== name && !owner.dependsOn.has(name)) return `${specifier}: ${owner.name} does not declare ${name} in its package.json`;
  return undefined;
}

describe("package boundaries", () => {
  test("every workspace package has an index.ts entry point and an exports map", () => {
    const problems = workspaces.flatMap((w) => {
      const entry = w.exports["."];
      if (!entry) return [`${w.dir}: no "." in its package.json exports`];
      if (!/(^|\/)index\.ts$/.test(entry)) return [`${w.dir}: its entry point ${entry} is not an index.ts`];
      return Object.entries(w.exports)
        .filter(([, path]) => !existsSync(join(ROOT, w.dir, path)))
        .map(([key, path]) => `${w.dir}: export ${key} points at ${path}, which does not exist`);
    });
    expect(problems).toEqual([]);
  });

  test("no tracked .ts file imports another package's internals", () => {
    expect(tracked.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const file of tracked) {
      const owner = packageOf(workspaces, file);
      for (const specifier of specifiers(readFileSync(join(ROOT, file), "utf8"))) {
        const problem = violation(file, owner, specifier);
        if (problem) problems.push(`${file}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("the check sees deep imports, relative escapes and undeclared packages", () => {
    const cli = byName.get("@svc/cli")!;
    expect(violation("cli/src/x.ts", cli, "@svc/profile-svc/src/profiles/service")).toContain("does not export ./src/profiles/service");
    expect(violation("cli/src/x.ts", cli, "../../profile-svc/src/profiles/service")).toContain("reaches into @svc/profile-svc");
    expect(violation("cli/src/x.ts", cli, "@svc/orchestrator-svc")).toContain("does not declare @svc/orchestrator-svc");
    expect(violation("cli/src/x.ts", cli, "./io")).toBeUndefined();
    expect(violation("bench/x.ts", undefined, "../tests/support/svc-app")).toContain("reaches into @svc/testing");
    // Written with a placeholder so that this file's own imports are only its real ones.
    const sample = `IMPORT type { A } from "@svc/a/src/x";\nexport { b } from "./b";\nconst c = await IMPORT("@svc/c");\nIMPORT "./side-effect";`;
    expect(specifiers(sample.replaceAll("IMPORT", "import"))).toEqual([
      "@svc/a/src/x",
      "./b",
      "@svc/c",
      "./side-effect",
    ]);
  });

  test("the CLI and the typed client load no HTTP server framework, even for offline profile commands", async () => {
    const bundled = async (entry: string) => {
      const build = await Bun.build({ entrypoints: [join(ROOT, entry)], target: "bun", throw: false });
      expect(build.success).toBe(true);
      return (await Promise.all(build.outputs.filter((o) => o.kind !== "asset").map((output) => output.text()))).join("\n");
    };
    const framework = /node_modules\/(elysia|@elysiajs)\//;
    expect(await bundled("gateway/src/index.ts")).toMatch(framework);
    const cli = await bundled("cli/src/main.ts");
    expect(cli).toContain("profilesOnDisk");
    expect(cli).not.toMatch(framework);
    expect(await bundled("clients/typescript/src/index.ts")).not.toMatch(framework);
  });
});
