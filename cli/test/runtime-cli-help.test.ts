import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { freePort, runSvc, tempHome } from "@svc/testing";

const home = tempHome("svc-cli-runtime-help-");
afterAll(() => rmSync(home, { recursive: true, force: true }));

test("svc runtime rm --help lists its --version option (cac hides options named version); ls has none", async () => {
  const env = { HOME: home, SVC_HOME_DIR: join(home, "svc"), SVC_HOST: "127.0.0.1", SVC_PORT: String(await freePort()), SSH_AUTH_SOCK: "" };
  const rm = await runSvc(["runtime", "rm", "--help"], env);
  expect(rm.code).toBe(0);
  expect(rm.stdout).toContain("$ svc runtime rm");
  expect(rm.stdout).toMatch(/--version <version>\s+The version to remove/);
  expect(rm.stdout).toMatch(/-p, --profile <profile>[\s\S]*--version <version>[\s\S]*--json[\s\S]*-h, --help/);
  const ls = await runSvc(["runtime", "ls", "--help"], env);
  expect(ls.code).toBe(0);
  expect(ls.stdout).not.toContain("--version");
  expect(ls.stdout).toContain("-p, --profile <profile>");
});
