import { badRequest, type GpuEngine } from "@svc/contracts";
import type { EngineOptionList } from "./option-list";
import sglang from "./sglang.json";
import sglang0506 from "./sglang-v0.5.6.json";
import sglang0507 from "./sglang-v0.5.7.json";
import sglang0508 from "./sglang-v0.5.8.json";
import sglang0509 from "./sglang-v0.5.9.json";
import sglang0510 from "./sglang-v0.5.10.json";
import sglang0511 from "./sglang-v0.5.11.json";
import sglang0512 from "./sglang-v0.5.12.json";
import sglang0513 from "./sglang-v0.5.13.json";
import sglang0514 from "./sglang-v0.5.14.json";
import sglang0515 from "./sglang-v0.5.15.json";
import sglang0516 from "./sglang-v0.5.16.json";
import sglang0517 from "./sglang-v0.5.17.json";
import sglang0518 from "./sglang-v0.5.18.json";
import vllm from "./vllm.json";
import vllm012 from "./vllm-v0.12.0.json";
import vllm013 from "./vllm-v0.13.0.json";
import vllm014 from "./vllm-v0.14.0.json";
import vllm015 from "./vllm-v0.15.0.json";
import vllm016 from "./vllm-v0.16.0.json";
import vllm017 from "./vllm-v0.17.0.json";
import vllm018 from "./vllm-v0.18.0.json";
import vllm019 from "./vllm-v0.19.0.json";
import vllm020 from "./vllm-v0.20.0.json";
import vllm021 from "./vllm-v0.21.0.json";
import vllm022 from "./vllm-v0.22.0.json";
import vllm023 from "./vllm-v0.23.0.json";
import vllm028 from "./vllm-v0.28.0.json";

/**
 * Every option list svc has, by engine, one per release line (minor version), oldest first. A new
 * release's list (generate.ts writes `<engine>-<version>.json`) is imported here; the newest of each
 * engine is the one its pinned image runs (platform/src/config/images.ts).
 */
export const OPTION_LISTS: Record<GpuEngine, EngineOptionList[]> = {
  vllm: [
    vllm as EngineOptionList,
    vllm012 as EngineOptionList,
    vllm013 as EngineOptionList,
    vllm014 as EngineOptionList,
    vllm015 as EngineOptionList,
    vllm016 as EngineOptionList,
    vllm017 as EngineOptionList,
    vllm018 as EngineOptionList,
    vllm019 as EngineOptionList,
    vllm020 as EngineOptionList,
    vllm021 as EngineOptionList,
    vllm022 as EngineOptionList,
    vllm023 as EngineOptionList,
    vllm028 as EngineOptionList,
  ],
  sglang: [
    sglang as EngineOptionList,
    sglang0506 as EngineOptionList,
    sglang0507 as EngineOptionList,
    sglang0508 as EngineOptionList,
    sglang0509 as EngineOptionList,
    sglang0510 as EngineOptionList,
    sglang0511 as EngineOptionList,
    sglang0512 as EngineOptionList,
    sglang0513 as EngineOptionList,
    sglang0514 as EngineOptionList,
    sglang0515 as EngineOptionList,
    sglang0516 as EngineOptionList,
    sglang0517 as EngineOptionList,
    sglang0518 as EngineOptionList,
  ],
};

const LABELS: Record<GpuEngine, string> = { vllm: "vLLM", sglang: "SGLang" };

/** A version as the engines write theirs (`0.11.1`, `v0.13.0rc2`, `0.11.1.post1+cu128`, `0.5.5.post3`): its numbers. */
export function parseEngineVersion(text: string): number[] | undefined {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[.+-]?[0-9A-Za-z.+-]*)?$/.exec(text.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/** A version's release line, `major.minor` (the lists are one per line: patch releases keep the options). */
export function releaseLine(version: string): string | undefined {
  const numbers = parseEngineVersion(version);
  return numbers ? `${numbers[0]}.${numbers[1]}` : undefined;
}

/**
 * How many numbers of a version make its release line: vLLM keeps its options within a minor line
 * (0.11.0, 0.11.1); SGLang has stayed on 0.5 for its releases since 2025, each adding options, so a
 * patch release is a line of its own (0.5.5, 0.5.9).
 */
const LINE_DEPTH: Record<GpuEngine, number> = { vllm: 2, sglang: 3 };

const compareLines = (a: number[], b: number[], depth: number) => {
  for (let i = 0; i < depth; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
};

export interface ChosenOptionList {
  list: EngineOptionList;
  /** The engine's version the arguments are for: the one found or given, else the list's own. */
  version: string;
  /** Set when the list is of another release line than `version` (no list for it): says which. */
  warning?: string;
}

/** The newest list of an engine: what its pinned image runs. */
export const pinnedList = (engine: GpuEngine, lists = OPTION_LISTS[engine]): EngineOptionList => lists[lists.length - 1];

/**
 * The option list to check `engine`'s arguments against for `version` (without one: the pinned
 * list). A version of a release line svc has no list for is checked against the nearest older line,
 * or the oldest where it is older than every list, with a warning saying so. A version that is no
 * version is a 400 naming `field`.
 */
export function optionListFor(engine: GpuEngine, version: string | undefined, lists = OPTION_LISTS[engine], field = "engineVersion"): ChosenOptionList {
  if (version === undefined) {
    const list = pinnedList(engine, lists);
    return { list, version: list.version };
  }
  const wanted = parseEngineVersion(version);
  if (!wanted) throw badRequest(`${field} ${JSON.stringify(version)} is not a version of ${LABELS[engine]}: give one such as 0.11.1.`, { field });
  const lines = lists.map((list) => ({ list, numbers: parseEngineVersion(list.version)! }));
  const depth = LINE_DEPTH[engine];
  const same = lines.find((each) => compareLines(each.numbers, wanted, depth) === 0);
  if (same) return { list: same.list, version };
  const older = lines.filter((each) => compareLines(each.numbers, wanted, depth) < 0).at(-1);
  const chosen = older ?? lines[0];
  const why = older ? "the nearest older release svc has a list for" : "the oldest svc has a list for";
  return {
    list: chosen.list,
    version,
    warning: `svc has no option list for ${LABELS[engine]} ${version}: its arguments are checked against ${LABELS[engine]} ${chosen.list.version}'s, ${why} (options added or removed since may be judged wrongly).`,
  };
}
