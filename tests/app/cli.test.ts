import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { VERSION } from "@svc/contracts";
import { join } from "node:path";
import { freePort, runSvc, startSvc, tempHome, type RunningSvc } from "@svc/testing";

describe("svc CLI against a running application (debug off)", () => {
  let app: RunningSvc;
  beforeAll(async () => {
    app = await startSvc({ env: { SVC_DEBUG: "false", SVC_RUNTIME_IMAGE_TEXT_GENERATION: "svc-text-generation:not-built-here" } });
  });
  afterAll(() => app.cleanup());
  const env = () => ({ SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) });

  test("svc info finds the generated token in the home folder", async () => {
    const result = await runSvc(["info"], env());
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`svc ${VERSION} at http://127.0.0.1:${app.port}`);
    expect(result.stdout).toMatch(/profile-svc\s+up/);
  });

  test("svc info --json prints the info and health as JSON", async () => {
    const result = await runSvc(["info", "--json"], env());
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({ port: app.port, debug: false, health: { status: "ok" } });
  });

  test("model ls --refresh before svc init points to svc init; image ls says an image is not built", async () => {
    const refresh = await runSvc(["model", "ls", "--refresh"], env());
    expect(refresh.stderr).toContain("svc init");
    const images = await runSvc(["image", "ls"], env());
    expect(images.code).toBe(0);
    expect(images.stdout).not.toContain("None");
    expect(images.stdout).toMatch(/text-generation\s+svc\s+svc-text-generation:not-built-here\s+SVC_RUNTIME_IMAGE_TEXT_GENERATION\s+no\s+not built/);
  });

  test("a wrong token is reported with what to set", async () => {
    const result = await runSvc(["info"], { ...env(), SVC_AUTH_TOKEN: "definitely-not-the-token" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Missing or wrong auth token");
    expect(result.stderr).toContain("SVC_AUTH_TOKEN");
  });

  test("svc ls and svc model ls without options (main.ts's quick path) answer as with them: token file, wrong token, wrong port", async () => {
    for (const [quick, full] of [
      [["ls"], ["ls", "--limit", "100"]],
      [["model", "ls"], ["model", "ls", "--profile", "default"]],
      [["model", "list"], ["model", "ls", "--profile", "default"]],
    ]) {
      const [a, b] = [await runSvc(quick, env()), await runSvc(full, env())];
      expect({ code: a.code, stdout: a.stdout, stderr: a.stderr }).toEqual({ code: 0, stdout: b.stdout, stderr: b.stderr });
      const wrong = await runSvc(quick, { ...env(), SVC_AUTH_TOKEN: "definitely-not-the-token" });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain("Missing or wrong auth token");
      const wrongPort = await freePort();
      const away = await runSvc(quick, { ...env(), SVC_PORT: String(wrongPort) });
      expect(away.code).toBe(1);
      expect(away.stderr).toContain(`cannot reach the svc application at 127.0.0.1:${wrongPort}`);
    }
  });

  test("a too-long engine argument is refused with which one, its length and the limit, and no API field path", async () => {
    const result = await runSvc(["run", "text-generation", "a/b", "--dry-run", "--", "--max-num-seqs", "8", `--chat-template=${"x".repeat(5000)}`], env());
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('svc: Engine argument 3 ("--chat-template=xxxxxxxx…") is too long (5016 characters): at most 4096 characters.');
  });

  test("pointed at the wrong port, every command says where it looked and which variables set it", async () => {
    const wrongPort = await freePort();
    const result = await runSvc(["info"], { ...env(), SVC_PORT: String(wrongPort) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot reach the svc application at 127.0.0.1:${wrongPort}`);
    expect(result.stderr).toContain("SVC_HOST");
    expect(result.stderr).toContain("SVC_PORT");
    expect(result.stderr).not.toContain("    at ");
  });
});

describe("svc CLI usage and configuration errors", () => {
  test("--help lists the commands and --version prints the version", async () => {
    const help = await runSvc(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("start");
    const version = await runSvc(["--version"]);
    expect(version.stdout.trim()).toBe(`svc ${VERSION}`);
  });

  test("an unknown command gives a short usage message and exit code 2", async () => {
    const result = await runSvc(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(result.stderr).toContain("svc --help");
  });

  test("an unknown option gives a short usage message and exit code 2", async () => {
    const result = await runSvc(["start", "--colour", "red"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option --colour.");
    expect(result.stderr).not.toContain("Did you mean");
    expect(result.stderr).toContain("svc start --help");
  });

  test("'Did you mean' for a mistyped command, group command, option or task", async () => {
    const cases: [string[], string][] = [
      [["lss"], "unknown command 'lss'. Did you mean 'ls'?"],
      [["detials", "x"], "Did you mean 'details'?"],
      [["model", "lss"], "unknown command 'svc model lss'. Did you mean 'svc model ls'?"],
      [["start", "--home-dirr", "/tmp/x"], "unknown option --home-dirr. Did you mean --home-dir?"],
      [["model", "ls", "--refersh"], "unknown option --refersh. Did you mean --refresh?"],
      [["run", "text-generation", "a/b", "--max-totl-tokens", "5", "--", "x"], ""],
      [["run", "speech-recognition", "a/b", "--input-dri", "/x"], "unknown option --input-dri for speech-recognition. Did you mean --input-dir?"],
      [["run", "--partiton", "debug", "text-generation", "a/b"], "unknown option --partiton. Did you mean --partition?"],
      [["run", "text-generaton", "a/b"], "unknown task 'text-generaton'. Did you mean text-generation?"],
    ];
    for (const [args, expected] of cases) {
      if (!expected) continue; // after MODEL, unknown options go to the engine
      const result = await runSvc(args, { SVC_PORT: String(await freePort()) });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(expected);
    }
  });

  test("svc run --help describes every option, --json included", async () => {
    const help = await runSvc(["run", "--help"]);
    expect(help.code).toBe(0);
    for (const line of help.stdout.split("\n").filter((l) => /^  --/.test(l))) expect(line.trim()).toMatch(/^\S.*\s{2,}\S/);
    expect(help.stdout).toMatch(/--json\s{2,}Print the API's answer/);
  });

  test("svc init with the application down says once that it works on the file directly", async () => {
    const home = tempHome();
    const result = await runSvc(["init", "--yes", "--home-dir", join(home, "h"), "--cache-dir", home], { SVC_HOME_DIR: home, SVC_PORT: String(await freePort()) });
    expect(result.code).toBe(0);
    expect(result.stderr.match(/svc is not running/g)).toHaveLength(1);
  });

  test("bad environment values stop start-up with the variable and the accepted values", async () => {
    const home = tempHome();
    const cases: [Record<string, string>, string[], string[]][] = [
      [{ SVC_PORT: "abc" }, [], ["SVC_PORT", "0 to 65535"]],
      [{ SVC_PORT: "70000" }, [], ["SVC_PORT", "0 to 65535"]],
      [{ SVC_DEBUG: "perhaps" }, [], ["SVC_DEBUG", "true/false"]],
      [{}, ["--port", "abc"], ["--port", "0 to 65535"]],
      [{ SVC_DEBUG: "false", SVC_AUTH_TOKEN: "short" }, [], ["SVC_AUTH_TOKEN", "at least 16"]],
    ];
    for (const [env, args, expected] of cases) {
      const result = await runSvc(["start", ...args], { SVC_HOME_DIR: home, ...env });
      expect(result.code).toBe(2);
      for (const text of expected) expect(result.stderr).toContain(text);
      expect(result.stderr).not.toContain("    at ");
    }
    const info = await runSvc(["info"], { SVC_PORT: "abc" });
    expect(info.code).toBe(2);
    expect(info.stderr).toContain("SVC_PORT");
  });
});
