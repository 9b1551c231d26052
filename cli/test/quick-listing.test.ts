/**
 * `svc ls` / `svc model ls` without options (quick.ts): run from a bundle, the bundle's check that it
 * is current runs while the request is out, and nothing is printed unless it is (main.ts then runs
 * the sources, which print). Against a port nothing listens on, so the answer is the usual error.
 */
import { expect, test } from "bun:test";
import { freePort, tempHome } from "@svc/testing";
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
