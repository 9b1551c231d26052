import { readProcStat } from "@svc/platform/process";

/**
 * A zombie process: a child that has exited but that its parent never reaps (the parent is a shell
 * that `exec`s into `sleep`). It stays a zombie until `release()` ends that parent. The child exits
 * only once its parent is `sleep`, since the shell itself might reap a child that ends sooner.
 */
export async function makeZombie(): Promise<{ pid: number; release: () => Promise<void> }> {
  const parent = Bun.spawn(["sh", "-c", '(while [ "$(cat /proc/$$/comm)" != sleep ]; do sleep 0.01; done) & echo "$!"; exec sleep 600'], {
    stdout: "pipe",
    stderr: "ignore",
    stdin: "ignore",
  });
  const reader = parent.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no child pid from the zombie maker: ${JSON.stringify(text)}`);
  const deadline = Date.now() + 10_000;
  while (readProcStat(pid)?.state !== "Z") {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not become a zombie (state ${readProcStat(pid)?.state})`);
    await Bun.sleep(10);
  }
  return {
    pid,
    release: async () => {
      parent.kill("SIGKILL");
      await parent.exited;
    },
  };
}
