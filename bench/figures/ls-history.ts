/**
 * Figure 2: flat with history. `svc ls` and `svc ls --all` (its first page) on a home with 10,000 ended
 * services against the same on a home with 10, both apps up at once, in 6 alternating hyperfine rounds
 * of 10 runs each (medians of 60), as the CLI start-up figure: a burst of other work on the machine
 * then does not fall on one side only. The records ended 2 to 30 days ago, so `svc ls` lists the live
 * ones (none) either way.
 */
import { homeWithEndedServices, startSvc, SVC, type RunningSvc } from "@svc/testing";
import { atMost, hyperfine, type Row } from "../lib/measure";

const DAY = 86_400_000;

/** A home with `count` services that ended 2 to 30 days ago. */
const homeWithEnded = (count: number) => homeWithEndedServices(count, (i) => 2 * DAY + (i / count) * 28 * DAY);

export async function lsHistory(): Promise<Row[]> {
  const apps: RunningSvc[] = [];
  try {
    for (const count of [10, 10_000]) apps.push(await startSvc({ home: homeWithEnded(count) }));
    const env = (app: RunningSvc) => `env SVC_HOME_DIR=${app.home} SVC_HOST=127.0.0.1 SVC_PORT=${app.port} ${SVC}`;
    const rows: Row[] = [];
    for (const args of ["ls", "ls --all"]) {
      const [few, many] = hyperfine(apps.map((app) => `${env(app)} ${args}`), process.env, 60, 6);
      rows.push(atMost(`flat with history: svc ${args}, 10,000 ended vs 10`, many, "10 ended", few, 1.2));
    }
    return rows;
  } finally {
    for (const app of apps) await app.cleanup();
  }
}
