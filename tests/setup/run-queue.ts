/**
 * Runs `run` on every item, taking items in their order: always up to `workers` at a time, and up to
 * `most` while `hasRoom()` says the machine has CPU to spare. Many files mostly wait (a soak, Slurm's
 * time limits, idle timeouts), and four of them at once leave the cores idle; one more starts only
 * when the CPU has been idle enough lately, and then not before `settleMs` have passed, so that its
 * own start shows in the CPU before the next is weighed.
 */
export interface QueueLimits {
  workers: number;
  most: number;
  hasRoom: () => boolean;
  /** How often room is looked for, besides whenever a job ends. */
  pollMs: number;
  settleMs: number;
}

export const fixedWorkers = (workers: number): QueueLimits => ({ workers, most: workers, hasRoom: () => false, pollMs: 1000, settleMs: 0 });

export function runQueue<T, R>(items: T[], limits: QueueLimits, run: (item: T) => Promise<R>): Promise<R[]> {
  const workers = Math.max(1, limits.workers);
  const results: R[] = new Array(items.length);
  let next = 0;
  let running = 0;
  let lastBeyond = -Infinity;
  let failed = false;
  return new Promise((resolve, reject) => {
    const start = () => {
      const index = next++;
      running++;
      run(items[index]!).then((result) => {
        results[index] = result;
        running--;
        fill();
      }, fail);
    };
    const fill = () => {
      if (failed) return;
      while (next < items.length && running < workers) start();
      if (next < items.length && running < limits.most && performance.now() - lastBeyond >= limits.settleMs && limits.hasRoom()) {
        lastBeyond = performance.now();
        start();
      }
      if (next === items.length && running === 0) {
        clearInterval(poll);
        resolve(results);
      }
    };
    const fail = (error: unknown) => {
      failed = true;
      clearInterval(poll);
      reject(error);
    };
    const poll = setInterval(fill, limits.pollMs);
    fill();
  });
}
