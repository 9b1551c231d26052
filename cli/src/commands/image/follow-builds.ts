import type { SvcClient } from "@svc/client";
import type { ImageBuild } from "@svc/contracts";
import { pauseUnless } from "../../pause";

const POLL_MS = 500;

/**
 * While `work` runs (a `svc run` or `svc image build` request), shows the output of the image
 * builds the application runs meanwhile, line by line on stderr: which base and why, then docker
 * build's steps. Builds that ended before `work` started are not shown. An application without
 * the builds route is simply not followed.
 */
export async function showingImageBuilds<T>(client: SvcClient, say: (line: string) => void, work: Promise<T>): Promise<T> {
  const since = Date.now() - 1000;
  const printed = new Map<string, number>();
  let supported = true;
  const show = async () => {
    if (!supported) return;
    let builds: ImageBuild[];
    try {
      builds = await client.images.builds();
    } catch {
      supported = false;
      return;
    }
    for (const build of [...builds].reverse()) {
      if (build.state !== "running" && Date.parse(build.finishedAt ?? build.startedAt) < since) continue;
      if (!printed.has(build.id)) say(`Building the runtime image ${build.image}:`);
      const done = printed.get(build.id) ?? 0;
      const from = Math.max(done, build.droppedLines);
      for (const line of build.lines.slice(from - build.droppedLines)) say(`  ${line}`);
      printed.set(build.id, build.droppedLines + build.lines.length);
    }
  };
  let finished = false;
  const settled = work.finally(() => (finished = true));
  const loop = (async () => {
    while (!finished) {
      await pauseUnless(POLL_MS, settled);
      await show();
    }
  })();
  try {
    return await settled;
  } finally {
    await loop;
  }
}
