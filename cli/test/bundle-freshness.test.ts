/**
 * `./svc` runs the bundle that `npm install` built only while it is current: after an edit, an added
 * file or a removed one in a source folder it was built from, it runs the sources. Checked on a copy
 * of the script in a scratch tree (a stand-in bundle and sources that say which one ran), so the
 * repository's own files are never touched.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "@svc/testing";

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

const past = new Date(Date.now() - 3_600_000);
for (const file of ["cli/src/main.ts", "cli/src/commands/ls.ts", "cli/src/commands", "cli/src", "cli/package.json"]) utimesSync(join(tree, file), past, past);
writeFileSync(join(tree, "cli", ".bundle", "main.js"), 'console.log("bundle", process.argv.slice(2).join(" "));\n');
writeFileSync(join(tree, "cli", ".bundle", "stamp"), "");
writeFileSync(join(tree, "cli", ".bundle", "watched"), `${join(tree, "cli", "src")}\n${join(tree, "cli", "package.json")}\n`);

const svc = (...args: string[]) => {
  const result = Bun.spawnSync([join(tree, "svc"), ...args], { stdout: "pipe", stderr: "pipe" });
  expect(result.stderr.toString()).toBe("");
  return result.stdout.toString().trim();
};

test("a current bundle runs, except for `svc start`", () => {
  expect(svc("ls", "--all")).toBe("bundle ls --all");
  expect(svc("start", "--port", "1")).toBe("sources start --port 1");
});

test("an edited source makes ./svc run the sources until the bundle is built again", () => {
  writeFileSync(join(tree, "cli", "src", "commands", "ls.ts"), "export const edited = true;\n");
  expect(svc("ls")).toBe("sources ls");
  writeFileSync(join(tree, "cli", ".bundle", "stamp"), "");
  expect(svc("ls")).toBe("bundle ls");
});

test("an added or removed source file makes the bundle stale", () => {
  utimesSync(join(tree, "cli", ".bundle", "stamp"), new Date(), new Date());
  const later = new Date(Date.now() + 5_000);
  writeFileSync(join(tree, "cli", "src", "commands", "new.ts"), "export {};\n");
  utimesSync(join(tree, "cli", "src", "commands", "new.ts"), past, past); // a file copied in keeps an old time; its folder changed
  utimesSync(join(tree, "cli", "src", "commands"), later, later);
  expect(svc("ls")).toBe("sources ls");
});

test("a watched folder that is gone (the tree moved) runs the sources", () => {
  writeFileSync(join(tree, "cli", ".bundle", "watched"), `${join(tree, "nowhere")}\n`);
  expect(svc("--version")).toBe("sources --version");
});
