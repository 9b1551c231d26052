/** audio_path as the caller knows it: relative to the input folder, or absolute on the service host while the folder is mounted elsewhere. */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OpenAiError } from "@svc/runtime-common";
import { resolveInputPath } from "../src/input-path";

const base = mkdtempSync(join(tmpdir(), "svc-sr-paths-"));
const mounted = join(base, "inputs"); // where the folder is inside the "container"
const hostDir = "/srv/svc-host/inputs"; // where callers see it; need not exist here
mkdirSync(join(mounted, "day1"), { recursive: true });
writeFileSync(join(mounted, "day1", "a.wav"), "RIFF");
writeFileSync(join(base, "outside.wav"), "RIFF");
afterAll(() => rmSync(base, { recursive: true, force: true }));

const folder = { dir: mounted, hostDir };
const refusal = (audioPath: string) => {
  try {
    resolveInputPath(folder, audioPath);
  } catch (error) {
    return error as OpenAiError;
  }
  throw new Error(`${audioPath} was accepted`);
};

test("an absolute host path inside the host folder maps to the mounted file", () => {
  expect(resolveInputPath(folder, `${hostDir}/day1/a.wav`)).toBe(join(mounted, "day1", "a.wav"));
  expect(resolveInputPath(folder, "day1/a.wav")).toBe(join(mounted, "day1", "a.wav"));
  expect(resolveInputPath(folder, join(mounted, "day1", "a.wav"))).toBe(join(mounted, "day1", "a.wav"));
});

test("paths outside the host folder get 400 naming it; a missing one 404 naming it", () => {
  for (const path of ["/srv/svc-host/other/a.wav", `${hostDir}/../secret.wav`, join(base, "outside.wav"), "../outside.wav", "/etc/passwd"]) {
    const error = refusal(path);
    expect({ path, status: error.status }).toEqual({ path, status: 400 });
    expect(error.message).toContain(`inside the input folder ${hostDir}`);
  }
  const missing = refusal(`${hostDir}/day2/b.wav`);
  expect(missing.status).toBe(404);
  expect(missing.message).toBe(`No file ${hostDir}/day2/b.wav in the input folder ${hostDir}.`);
  expect(refusal(hostDir).status).toBe(400);
});

test("without a host folder, messages name the folder as given", () => {
  const error = (() => {
    try {
      resolveInputPath({ dir: mounted }, "/etc/passwd");
    } catch (caught) {
      return caught as OpenAiError;
    }
  })();
  expect(error?.message).toContain(`inside the input folder ${mounted}`);
});
