/**
 * `bun bench/run-all.ts [figure …]`: every figure of "faster than the tools it sits beside", each with
 * both sides measured in this run, as one table: figure, svc, comparison, ratio, goal, met?. Names
 * (cli, ls, proxy, launch-docker, launch-slurm, control-loop, runtime, streams, prefix-routing, rate, fair-share) pick some; none runs all.
 * The machine may be shared with other work: the load average is printed before and after.
 * Needs Docker (and for launch-slurm the Slurm test image); installs hyperfine and nginx-light
 * from Debian when missing. Traffic stays on loopback; every loop is bounded.
 */
import { cpus } from "node:os";
import { load, type Row } from "./lib/measure";
import { cliStartup } from "./figures/cli-startup";
import { lsHistory } from "./figures/ls-history";
import { proxy } from "./figures/proxy";
import { launchDocker } from "./figures/launch-docker";
import { launchSlurm } from "./figures/launch-slurm";
import { controlLoop } from "./figures/control-loop";
import { runtimeVsEngine } from "./figures/runtime";
import { manyStreams } from "./figures/streams";
import { prefixRouting } from "./figures/prefix-routing";
import { requestRate } from "./figures/rate";
import { fairShare } from "./figures/fair-share";

const FIGURES: Record<string, () => Promise<Row[]>> = {
  cli: cliStartup,
  ls: lsHistory,
  proxy,
  "launch-docker": launchDocker,
  "launch-slurm": launchSlurm,
  "control-loop": controlLoop,
  runtime: runtimeVsEngine,
  streams: manyStreams,
  "prefix-routing": prefixRouting,
  rate: requestRate,
  "fair-share": fairShare,
};

const wanted = process.argv.slice(2);
for (const name of wanted) if (!FIGURES[name]) throw new Error(`unknown figure ${name}: use ${Object.keys(FIGURES).join(", ")}`);
const started = new Date();
console.log(`svc bench, ${started.toISOString()}; ${cpus().length} cores, load average ${load()} (1, 5, 15 min; the machine is shared with other work)`);

const rows: Row[] = [];
for (const [name, figure] of Object.entries(FIGURES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  process.stderr.write(`measuring ${name}…\n`);
  try {
    rows.push(...(await figure()));
  } catch (error) {
    rows.push({ figure: `${name}: not measured`, svc: String((error as Error).message ?? error).split("\n")[0].slice(0, 80), comparison: "", ratio: Number.NaN, goal: "", met: false });
  }
}

const header = ["figure", "svc", "comparison", "ratio", "goal", "met?"];
/** Two decimals, or three when two would round onto the goal the figure misses (0.947 is not "0.95, no"). */
const ratioText = (r: Row) => {
  const two = r.ratio.toFixed(2);
  return !r.met && r.goal.includes(two) ? r.ratio.toFixed(3) : two;
};
const cells = rows.map((r) => [r.figure, r.svc, r.comparison, Number.isNaN(r.ratio) ? "–" : ratioText(r), r.goal, r.met ? "yes" : "no"]);
console.log(`\n| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
for (const line of cells) console.log(`| ${line.join(" | ")} |`);
console.log(`\nload average after: ${load()}; ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s`);
