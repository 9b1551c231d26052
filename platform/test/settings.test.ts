import { describe, expect, test } from "bun:test";
import { ConfigError, loadSettings } from "../src/config";

const HOME = { HOME: "/home/ada" };

describe("loadSettings", () => {
  test("defaults follow the spec", () => {
    expect(loadSettings(HOME)).toEqual({ host: "localhost", port: 8000, homeDir: "/home/ada/.svc", debug: true, authToken: undefined, allowedHosts: [] });
  });

  test("reads the current variable names", () => {
    const settings = loadSettings({ ...HOME, SVC_HOST: "127.0.0.1", SVC_PORT: "9001", SVC_HOME_DIR: "~/data/svc", SVC_DEBUG: "no", SVC_AUTH_TOKEN: "0123456789abcdef0123" });
    expect(settings).toEqual({ host: "127.0.0.1", port: 9001, homeDir: "/home/ada/data/svc", debug: false, authToken: "0123456789abcdef0123", allowedHosts: [] });
  });

  test("reads the older names SVC_DEV_MODE and SVC_TOKEN; the current names win", () => {
    expect(loadSettings({ ...HOME, SVC_DEV_MODE: "0", SVC_TOKEN: "legacy-token-0123456789" })).toMatchObject({ debug: false, authToken: "legacy-token-0123456789" });
    expect(loadSettings({ ...HOME, SVC_DEV_MODE: "0", SVC_DEBUG: "1" }).debug).toBe(true);
    expect(loadSettings({ ...HOME, SVC_TOKEN: "legacy-token-0123456789", SVC_AUTH_TOKEN: "current-token-0123456789" }).authToken).toBe("current-token-0123456789");
  });

  test("options win over the environment", () => {
    const settings = loadSettings({ ...HOME, SVC_PORT: "9001", SVC_DEBUG: "true" }, { port: "9002", debug: "off", homeDir: "/srv/svc", host: "::1" });
    expect(settings).toMatchObject({ port: 9002, debug: false, homeDir: "/srv/svc", host: "::1" });
  });

  test.each(["1", "true", "YES", "on", " True "])("accepts %p as true", (word) => {
    expect(loadSettings({ ...HOME, SVC_DEBUG: word }).debug).toBe(true);
  });
  test.each(["0", "false", "No", "off"])("accepts %p as false", (word) => {
    expect(loadSettings({ ...HOME, SVC_DEBUG: word }).debug).toBe(false);
  });

  const rejections: [Record<string, string>, string, string][] = [
    [{ SVC_PORT: "abc" }, "SVC_PORT", "0 to 65535"],
    [{ SVC_PORT: "70000" }, "SVC_PORT", "0 to 65535"],
    [{ SVC_PORT: "-1" }, "SVC_PORT", "0 to 65535"],
    [{ SVC_PORT: "80.5" }, "SVC_PORT", "0 to 65535"],
    [{ SVC_DEBUG: "maybe" }, "SVC_DEBUG", "true/false"],
    [{ SVC_DEV_MODE: "2" }, "SVC_DEV_MODE", "1/0"],
    [{ SVC_HOST: "http://localhost" }, "SVC_HOST", "without scheme or port"],
    [{ SVC_HOST: "local host" }, "SVC_HOST", "without scheme or port"],
    [{ SVC_AUTH_TOKEN: "short" }, "SVC_AUTH_TOKEN", "at least 16 characters"],
    [{ SVC_TOKEN: "has spaces in the token" }, "SVC_TOKEN", "without spaces"],
  ];
  test.each(rejections)("rejects %p naming %s and the accepted values", (env, variable, accepted) => {
    let error: unknown;
    try {
      loadSettings({ ...HOME, ...env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(variable);
    expect((error as Error).message).toContain(accepted);
  });

  test("SVC_ALLOWED_HOSTS (or --allowed-hosts) lists extra host names, lower case, brackets and blanks dropped", () => {
    expect(loadSettings({ ...HOME, SVC_ALLOWED_HOSTS: " SVC.example.org, gpu-box ,[::1],," }).allowedHosts).toEqual(["svc.example.org", "gpu-box", "::1"]);
    expect(loadSettings({ ...HOME, SVC_ALLOWED_HOSTS: "a.example" }, { allowedHosts: "b.example" }).allowedHosts).toEqual(["b.example"]);
    expect(() => loadSettings({ ...HOME, SVC_ALLOWED_HOSTS: "ok.example,https://bad.example" })).toThrow("SVC_ALLOWED_HOSTS");
  });

  test("a bad option is reported under the option's name", () => {
    expect(() => loadSettings(HOME, { port: "abc" })).toThrow("--port");
  });
});
