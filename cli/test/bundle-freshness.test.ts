/**
 * `./svc` runs the bundle that `npm install` built only while it is current: after an edit, an added
 * file or a removed one among the sources it was built from, it runs the sources. Checked on a scratch
 * tree bundled by the real build (build-bundle.ts) with the real check (bundle-check.ts), where a
 * stand-in main.ts says which one ran, so the repository's own files are never touched.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "@svc/testing";
import { bundleCli } from "../build-bundle";

const tree = mkdtempSync(join(tmpdir(), "svc-bundle-"));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

copyFileSync(join(REPO_ROOT, "svc"), join(tree, "svc"));
mkdirSync(join(tree, "node_modules", ".bin"), { recursive: true });
symlinkSync(process.execPath, join(tree, "node_modules", ".bin", "bun"));
mkdirSync(join(tree, "cli", "src", "commands"), { recursive: true });
copyFileSync(join(REPO_ROOT, "cli", "src", "bundle-check.ts"), join(tree, "cli", "src", "bundle-check.ts"));
// As the real main.ts: `svc ls` loads quick.ts (and checks only what it loads), every other command program.ts.
writeFileSync(
  join(tree, "cli", "src", "main.ts"),
  `import { bundleSources } from "./bundle-check";
const args = process.argv.slice(2);
const quick = args.length === 1 && args[0] === "ls";
const origin = (globalThis as any).SVC_BUNDLE;
const sources = origin && bundleSources(origin, import.meta.dir);
if (sources && (args[0] === "start" || (quick ? sources.quickStale() : sources.stale()))) await import(sources.main);
else console.log(origin ? "bundle" : "sources", (quick ? await import("./quick") : await import("./program")).name, args.join(" "));
`,
);
writeFileSync(join(tree, "cli", "src", "quick.ts"), 'export { name } from "./commands/ls";\n');
writeFileSync(join(tree, "cli", "src", "program.ts"), 'import { name as ls } from "./commands/ls";\nimport { other } from "./commands/other";\nexport const name = other ? ls : "";\n');
writeFileSync(join(tree, "cli", "src", "commands", "ls.ts"), 'export const name = "ls";\n');
writeFileSync(join(tree, "cli", "src", "commands", "other.ts"), "export const other = true;\n");
writeFileSync(join(tree, "cli", "package.json"), "{}\n");
writeFileSync(join(tree, "package.json"), "{}\n");

/** Edits are dated a minute ahead and builds come after sources dated an hour back, whatever the clock's grain. */
const future = () => new Date(Date.now() + 60_000);
const SOURCES = ["package.json", "cli/package.json", "cli/src", "cli/src/main.ts", "cli/src/bundle-check.ts", "cli/src/quick.ts", "cli/src/program.ts", "cli/src/commands", "cli/src/commands/ls.ts", "cli/src/commands/other.ts"];
const bundled = async () => {
  const past = new Date(Date.now() - 3_600_000);
  for (const path of SOURCES) utimesSync(join(tree, path), past, past);
  expect(await bundleCli(tree)).toMatchObject({ sources: SOURCES.length });
};
const svc = (...args: string[]) => {
  const result = Bun.spawnSync([join(tree, "svc"), ...args], { stdout: "pipe", stderr: "pipe" });
  expect(result.stderr.toString()).toBe("");
  return result.stdout.toString().trim();
};

test("a current bundle runs, except for `svc start`; through a link from another folder too", async () => {
  await bundled();
  expect(svc("ls", "--all")).toBe("bundle ls ls --all");
  expect(svc("start", "--port", "1")).toBe("sources ls start --port 1");
  const link = join(tree, "link-to-svc");
  symlinkSync(join(tree, "svc"), link);
  expect(Bun.spawnSync([link, "ls"], { cwd: tmpdir(), stdout: "pipe" }).stdout.toString().trim()).toBe("bundle ls ls");
});

test("an edited source makes ./svc run the sources until the bundle is built again", async () => {
  await bundled();
  writeFileSync(join(tree, "cli", "src", "commands", "ls.ts"), 'export const name = "edited";\n');
  utimesSync(join(tree, "cli", "src", "commands", "ls.ts"), future(), future());
  expect(svc("ls")).toBe("sources edited ls");
  await bundled();
  expect(svc("ls")).toBe("bundle edited ls");
});

test("an added or removed source file makes the bundle stale", async () => {
  await bundled();
  writeFileSync(join(tree, "cli", "src", "commands", "new.ts"), "export {};\n");
  utimesSync(join(tree, "cli", "src", "commands"), future(), future()); // a file copied in keeps its old time; its folder changed
  expect(svc("ls")).toBe("sources edited ls");
  await bundled();
  unlinkSync(join(tree, "cli", "src", "commands", "new.ts"));
  utimesSync(join(tree, "cli", "src", "commands"), future(), future());
  expect(svc("--version")).toBe("sources edited --version");
});

test("svc ls checks only the sources of what it loads: another command's edit leaves it on the bundle", async () => {
  await bundled();
  utimesSync(join(tree, "cli", "src", "commands", "other.ts"), future(), future());
  expect(svc("ls")).toBe("bundle edited ls");
  expect(svc("ls", "--all")).toBe("sources edited ls --all");
  utimesSync(join(tree, "cli", "src", "quick.ts"), future(), future());
  expect(svc("ls")).toBe("sources edited ls");
});

test("without a bundle (it could not be built) ./svc runs the sources", () => {
  rmSync(join(tree, "cli", ".bundle"), { recursive: true });
  expect(svc("--version")).toBe("sources edited --version");
});
