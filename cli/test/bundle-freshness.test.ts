/**
 * `./svc` runs the bundle that `npm install` built only while it is current: after an edit, an added
 * file or a removed one among the sources it was built from, it runs the sources. Checked on a copy
 * of the script in a scratch tree (a stand-in bundle and sources that say which one ran, and the
 * loader cli/bundle.ts would write for them), so the repository's own files are never touched.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "@svc/testing";
import { loaderSource } from "../bundle-loader";

const tree = mkdtempSync(join(tmpdir(), "svc-bundle-"));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

copyFileSync(join(REPO_ROOT, "svc"), join(tree, "svc"));
mkdirSync(join(tree, "node_modules", ".bin"), { recursive: true });
symlinkSync(process.execPath, join(tree, "node_modules", ".bin", "bun"));
mkdirSync(join(tree, "cli", "src", "commands"), { recursive: true });
mkdirSync(join(tree, "cli", ".bundle"));
writeFileSync(join(tree, "cli", "src", "main.ts"), 'console.log("sources", process.argv.slice(2).join(" "));\n');
writeFileSync(join(tree, "cli", "src", "commands", "ls.ts"), "export {};\n");
writeFileSync(join(tree, "cli", "package.json"), "{}\n");
writeFileSync(join(tree, "cli", ".bundle", "main.js"), 'console.log("bundle", process.argv.slice(2).join(" "));\n');

const SOURCES = ["cli/package.json", "cli/src", "cli/src/commands", "cli/src/commands/ls.ts", "cli/src/main.ts"];
const past = new Date(Date.now() - 3_600_000);
/**
 * What `bun cli/bundle.ts` does: a stamp, then the loader naming the sources. The sources are dated an
 * hour back and the stamp a second after them, so an edit made now is newer whatever the clock's grain.
 */
const bundled = () => {
  for (const file of SOURCES) utimesSync(join(tree, file), past, past);
  const stamp = join(tree, "cli", ".bundle", "stamp");
  writeFileSync(stamp, "");
  utimesSync(stamp, new Date(past.getTime() + 1000), new Date(past.getTime() + 1000));
  writeFileSync(join(tree, "cli", ".bundle", "run.js"), loaderSource(SOURCES, Bun.file(stamp).lastModified));
};
bundled();

const svc = (...args: string[]) => {
  const result = Bun.spawnSync([join(tree, "svc"), ...args], { stdout: "pipe", stderr: "pipe" });
  expect(result.stderr.toString()).toBe("");
  return result.stdout.toString().trim();
};

test("a current bundle runs, except for `svc start`", () => {
  expect(svc("ls", "--all")).toBe("bundle ls --all");
  expect(svc("start", "--port", "1")).toBe("sources start --port 1");
});

test("./svc works through a link, from another folder", () => {
  const link = join(tree, "link-to-svc");
  symlinkSync(join(tree, "svc"), link);
  const result = Bun.spawnSync([link, "ls"], { cwd: tmpdir(), stdout: "pipe", stderr: "pipe" });
  expect(result.stdout.toString().trim()).toBe("bundle ls");
});

test("an edited source makes ./svc run the sources until the bundle is built again", () => {
  writeFileSync(join(tree, "cli", "src", "commands", "ls.ts"), "export const edited = true;\n");
  expect(svc("ls")).toBe("sources ls");
  bundled();
  expect(svc("ls")).toBe("bundle ls");
});

test("an added or removed source file makes the bundle stale", () => {
  bundled();
  writeFileSync(join(tree, "cli", "src", "commands", "new.ts"), "export {};\n");
  utimesSync(join(tree, "cli", "src", "commands", "new.ts"), past, past); // a file copied in keeps an old time; its folder changed
  utimesSync(join(tree, "cli", "src", "commands"), new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
  expect(svc("ls")).toBe("sources ls");
  bundled();
  expect(svc("ls")).toBe("bundle ls");
  unlinkSync(join(tree, "cli", "src", "commands", "ls.ts"));
  expect(svc("--version")).toBe("sources --version");
});

test("without a bundle (it could not be built) ./svc runs the sources", () => {
  rmSync(join(tree, "cli", ".bundle"), { recursive: true });
  expect(svc("--version")).toBe("sources --version");
});
