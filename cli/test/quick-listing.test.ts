/**
 * `svc ls` / `svc model ls` without options (quick.ts): run from a bundle, the bundle's check that it
 * is current runs while the request is out, and nothing is printed unless it is (main.ts then runs
 * the sources, which print). Against a port nothing listens on, so the answer is the usual error.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, REPO_ROOT, tempHome } from "@svc/testing";
import { bundleCli } from "../build-bundle";
import { runQuick, STALE } from "../src/quick";

const env = { SVC_HOME_DIR: tempHome(), SVC_HOST: "127.0.0.1", SVC_PORT: String(await freePort()) };

async function listing(args: string[], isStale?: () => boolean) {
  const out: string[] = [];
  const code = await runQuick(args, { io: { out: (text) => out.push(text), err: (text) => out.push(text) }, env, isStale });
  return { code, out: out.join("\n") };
}

test("a current bundle prints the answer as the sources would; a stale one prints nothing and says so", async () => {
  for (const args of [["ls"], ["model", "ls"]]) {
    let checks = 0;
    const current = await listing(args, () => (checks++, false));
    expect(current).toEqual(await listing(args));
    expect(current.code).toBe(1);
    expect(current.out).toContain("cannot reach the svc application at 127.0.0.1:");
    expect(checks).toBe(1);
    expect(await listing(args, () => true)).toEqual({ code: STALE, out: "" });
  }
});

test("from the bundle, svc ls and svc model ls load their own listing and no schema library (typebox costs them ~15 ms a start)", async () => {
  const out = mkdtempSync(join(tmpdir(), "svc-quick-bundle-"));
  try {
    const built = await bundleCli(REPO_ROOT, join(out, "bundle"));
    if ("failed" in built) throw new Error(built.failed.join("\n"));
    // Both listings' modules are among what the bundle checks before printing them (they are imported on demand).
    expect(built.quickInputs).toContain("cli/src/commands/services/ls.ts");
    expect(built.quickInputs).toContain("cli/src/commands/model/ls.ts");
    expect(built.quickInputs.filter((input) => input.includes("@sinclair/typebox"))).toEqual([]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
