/** Figure 1: CLI start-up. `svc --version`, `svc ls`, `svc model ls` against `docker ps`, in 6 alternating hyperfine rounds of 10 runs each (medians of 60). */
import { SvcClient } from "@svc/client";
import { ensureDocker, registerTinyModels, SVC, startSvc } from "@svc/testing";
import { atMost, hyperfine, type Row } from "../lib/measure";
import { ensureCliBundle } from "../lib/cli-bundle";

export async function cliStartup(): Promise<Row[]> {
  ensureDocker();
  ensureCliBundle();
  const app = await startSvc();
  try {
    await registerTinyModels(new SvcClient({ baseUrl: app.url }), app.home);
    const env = { ...process.env, SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) };
    const commands = [`${SVC} --version`, `${SVC} ls`, `${SVC} model ls`];
    const [docker, ...svc] = hyperfine(["docker ps", ...commands], env, 60, 6);
    return commands.map((command, i) => atMost(`CLI start-up: svc ${command.slice(SVC.length + 1)}`, svc[i], "docker ps", docker, 1.0));
  } finally {
    await app.cleanup();
  }
}
