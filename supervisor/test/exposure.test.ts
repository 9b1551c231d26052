import { expect, test } from "bun:test";
import { loadSettings } from "@svc/platform/config";
import { checkExposure, StartError } from "../src/supervisor";

const settings = (env: Record<string, string>) => loadSettings({ HOME: "/home/ada", ...env });

function outcome(env: Record<string, string>, openDebugConfirmed = false) {
  const warnings: string[] = [];
  try {
    checkExposure(settings(env), { openDebugConfirmed }, { info: () => {}, error: (line) => warnings.push(line) });
    return { refused: undefined, warnings };
  } catch (error) {
    if (!(error instanceof StartError)) throw error;
    return { refused: error.message, warnings };
  }
}

test("debug mode on a host other machines reach is refused; --yes starts it with a warning", () => {
  for (const host of ["0.0.0.0", "::", "svc.example.org"]) {
    expect(outcome({ SVC_HOST: host }).refused).toContain(`--host ${host} serves svc beyond this machine`);
    const confirmed = outcome({ SVC_HOST: host }, true);
    expect(confirmed.refused).toBeUndefined();
    expect(confirmed.warnings[0]).toStartWith("WARNING: debug mode is on (no authentication)");
  }
});

test("loopback hosts, and any host with debug off, start without a word", () => {
  for (const host of ["localhost", "127.0.0.1", "127.0.1.1", "::1"]) expect(outcome({ SVC_HOST: host })).toEqual({ refused: undefined, warnings: [] });
  expect(outcome({ SVC_HOST: "0.0.0.0", SVC_DEBUG: "false" })).toEqual({ refused: undefined, warnings: [] });
});
