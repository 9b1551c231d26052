import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, runSvc, startSvc, SVC, tempHome, type RunningSvc } from "@svc/testing";

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A home folder and the environment of a CLI that finds no running application. */
async function offline() {
  const home = tempHome("svc-cli-profile-");
  homes.push(home);
  mkdirSync(join(home, "cache"));
  const env = { HOME: home, SVC_HOME_DIR: join(home, "svc"), SVC_HOST: "127.0.0.1", SVC_PORT: String(await freePort()), SSH_AUTH_SOCK: "" };
  return { home, env, file: join(home, "svc", "profiles.cfg") };
}

describe("svc init and svc profile without a running application (profiles.cfg directly)", () => {
  test("before init: ls says to run svc init, show fails saying so", async () => {
    const { env } = await offline();
    const ls = await runSvc(["profile", "ls"], env);
    expect(ls.code).toBe(0);
    expect(ls.stdout).toContain("No profiles yet: run `svc init`");
    const show = await runSvc(["profile", "show"], env);
    expect(show.code).toBe(1);
    expect(show.stderr).toContain("run `svc init`");
  });

  test("svc init --yes creates the default profile on a fresh machine, and is idempotent", async () => {
    const { env, file, home } = await offline();
    const init = await runSvc(["init", "--yes"], env);
    expect(init.stderr).toContain("svc is not running");
    expect(init.stdout).toContain("Created profile default (local).");
    expect(init.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(`[default]\nschema = local\nhome_dir = ${join(home, "svc")}\ncache_dir = ${join(home, "svc")}\n`);
    const again = await runSvc(["init", "--yes"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("The default profile already exists; nothing to do");
  });

  test("svc init with flags for a slurm profile needs its required flags, and checks the host", async () => {
    const { env, file } = await offline();
    const missing = await runSvc(["init", "--schema", "slurm", "--yes"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--host is required for a slurm profile");
    const unreachable = await runSvc(["init", "--schema", "slurm", "--host", "127.0.0.1", "--port", String(await freePort()), "--user", "svc", "--cache", "/srv", "--yes"], env);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("Cannot reach svc@127.0.0.1");
    expect(existsSync(file)).toBe(false);
  });

  test("profile add / ls / show / update / rm", async () => {
    const { env, home } = await offline();
    expect((await runSvc(["init", "--home-dir", join(home, "d"), "--cache-dir", join(home, "cache")], env)).code).toBe(0);
    const add = await runSvc(["profile", "create", "--name", "two", "--home-dir", join(home, "two"), "--cache-dir", join(home, "cache")], env);
    expect(add.code).toBe(0);
    expect(add.stdout).toContain("Created profile two (local).");

    const ls = await runSvc(["profile", "ls"], env);
    expect(ls.stdout.split("\n")[0]).toMatch(/^NAME\s+SCHEMA\s+HOST\s+USER\s+HOME\s+CACHE$/);
    expect(ls.stdout).toMatch(/two\s+local/);
    expect(JSON.parse((await runSvc(["profile", "ls", "--json"], env)).stdout).map((p: { name: string }) => p.name)).toEqual(["default", "two"]);
    expect((await runSvc(["profile", "show", "--name", "two"], env)).stdout).toContain(`home_dir:      ${join(home, "two")}`);
    expect(JSON.parse((await runSvc(["profile", "show", "--json"], env)).stdout).name).toBe("default");

    const nothing = await runSvc(["profile", "update", "--name", "two"], env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("nothing to change: pass --home-dir, --cache-dir");
    const bad = await runSvc(["profile", "update", "--name", "two", "--cache-dir", join(home, "nope")], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("does not exist");
    const wrongKind = await runSvc(["profile", "update", "--name", "two", "--host", "x"], env);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr).toContain("--host is for slurm profiles");
    const updated = await runSvc(["profile", "update", "--name", "two", "--cache-dir", home], env);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(`cache_dir:     ${home}`);

    const refused = await runSvc(["profile", "rm", "--name", "two"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("needs confirmation, but there is no terminal to ask in: pass --yes");
    expect((await runSvc(["profile", "show", "--name", "two"], env)).code).toBe(0);
    const removed = await runSvc(["profile", "rm", "--name", "two", "--yes"], env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("Removed profile two.");
    const keepDefault = await runSvc(["profile", "rm", "--yes"], env);
    expect(keepDefault.code).toBe(1);
    expect(keepDefault.stderr).toContain("cannot be removed");
  });

  test("usage errors: unknown subcommand or option, bad schema", async () => {
    const { env } = await offline();
    const unknown = await runSvc(["profile", "frob"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'svc profile frob'");
    const option = await runSvc(["profile", "ls", "--bogus"], env);
    expect(option.code).toBe(2);
    const schema = await runSvc(["init", "--schema", "k8s", "--yes"], env);
    expect(schema.code).toBe(2);
    expect(schema.stderr).toContain("use local or slurm");
    const help = await runSvc(["profile", "rm", "--help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("$ svc profile rm");
  });

  test("a hand-broken profiles.cfg is reported with its line and left alone", async () => {
    const { env, file } = await offline();
    mkdirSync(join(file, ".."), { recursive: true });
    const broken = "[default]\nschema = local\nhome_dir /nowhere\n";
    writeFileSync(file, broken);
    const result = await runSvc(["profile", "ls"], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file} line 3`);
    expect(readFileSync(file, "utf8")).toBe(broken);
  });
});

describe("svc init and svc profile against the running application", () => {
  let app: RunningSvc;
  beforeAll(async () => {
    app = await startSvc();
  });
  afterAll(() => app.cleanup());

  test("go through the REST API", async () => {
    const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) };
    const init = await runSvc(["init", "--yes"], env);
    expect(init.code).toBe(0);
    expect(init.stderr).not.toContain("svc is not running");
    const listed = (await (await fetch(`${app.url}/api/profiles`)).json()) as Array<{ name: string }>;
    expect(listed.map((p) => p.name)).toEqual(["default"]);
    expect((await runSvc(["profile", "ls"], env)).stdout).toMatch(/default\s+local/);
  });
});

/** Runs `svc args` in a pseudo-terminal (script(1)); `answer` replies to each prompt as it appears. */
async function inTerminal(args: string[], env: Record<string, string>, answers: Array<[RegExp, string]>) {
  const command = [SVC, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const proc = Bun.spawn(["script", "-qfec", command, "/dev/null"], { env: { ...process.env, ...env, TERM: "dumb" }, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  let output = "";
  const reader = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout as unknown as AsyncIterable<Uint8Array>) output += decoder.decode(chunk, { stream: true });
  })();
  let seen = 0;
  for (const [prompt, answer] of answers) {
    const deadline = Date.now() + 15_000;
    while (!prompt.test(output.slice(seen)) && Date.now() < deadline && proc.exitCode === null) await Bun.sleep(20);
    if (!prompt.test(output.slice(seen))) throw new Error(`no prompt ${prompt} in:\n${output}`);
    seen = output.length;
    proc.stdin.write(`${answer}\r`);
    proc.stdin.flush();
  }
  const code = await proc.exited;
  await reader;
  return { code, output };
}

describe("prompts in a real terminal", () => {
  test("svc init asks for schema and folders, with defaults", async () => {
    const { env, home, file } = await offline();
    const result = await inTerminal(["init"], env, [
      [/Schema \(local\/slurm\) \[local\]: /, ""],
      [/Home folder .*\]: /, join(home, "h")],
      [/Cache folder .*\[.*\/h\]: /, join(home, "cache")],
    ]);
    expect(result.output).toContain("Created profile default (local).");
    expect(result.code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain(`home_dir = ${join(home, "h")}\ncache_dir = ${join(home, "cache")}\n`);

    const update = await inTerminal(["profile", "update"], env, [
      [new RegExp(`Home folder .*\\[${join(home, "h")}\\]: `), ""],
      [/Cache folder .*\]: /, home],
    ]);
    expect(update.code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain(`home_dir = ${join(home, "h")}\ncache_dir = ${home}\n`);
  });

  test("svc profile rm asks for confirmation; no keeps the profile", async () => {
    const { env, home } = await offline();
    await runSvc(["init", "--yes"], env);
    await runSvc(["profile", "add", "--name", "extra", "--home-dir", join(home, "e"), "--cache-dir", join(home, "cache")], env);
    const no = await inTerminal(["profile", "rm", "--name", "extra"], env, [[/Remove profile extra \(local\)\? \[y\/N\]: /, "n"]]);
    expect(no.output).toContain("Kept profile extra.");
    expect((await runSvc(["profile", "show", "--name", "extra"], env)).code).toBe(0);
    const yes = await inTerminal(["profile", "rm", "--name", "extra"], env, [[/\[y\/N\]: /, "y"]]);
    expect(yes.output).toContain("Removed profile extra.");
    expect(yes.code).toBe(0);
  });
});
