import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, tempHome, type RunningSvc } from "./svc-app";

/** A folder holding only a link to `./svc`, to put on the PATH as a reader who followed the README would. */
export function svcOnPath(): string {
  const bin = tempHome("svc-docs-bin-");
  symlinkSync(join(REPO_ROOT, "svc"), join(bin, "svc"));
  return bin;
}

/**
 * A command block of the documentation, run as written with `bash -e` from the checkout, as a
 * reader would against `app`: SVC_HOME_DIR, SVC_HOST and SVC_PORT set to it, `bin` on the PATH.
 */
export async function runDocBlock(script: string, app: RunningSvc, bin: string): Promise<{ stdout: string; stderr: string; code: number }> {
  const proc = Bun.spawn(["bash", "-e", "-c", script], {
    cwd: REPO_ROOT,
    env: { ...process.env, SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), PATH: `${bin}:${process.env.PATH}` },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}
