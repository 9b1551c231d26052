import type { GpuEngine } from "@svc/contracts";
import { GPU_SERVERS } from "../engines/gpu-servers";
import type { EngineOptionList } from "../engines/options/option-list";

/** Other spellings of the options svc sets, as other release lines of each engine name them. */
const OTHER_SPELLINGS: Record<GpuEngine, Record<string, string[]>> = {
  vllm: {
    "--tensor-parallel-size": ["-tp"],
    "--pipeline-parallel-size": ["-pp"],
  },
  sglang: {
    "--tp-size": ["--tensor-parallel-size"],
    "--pp-size": ["--pipeline-parallel-size"],
  },
};

const find = (list: EngineOptionList, name: string) => list.options.find((option) => option.name === name || option.aliases.includes(name));
const has = (list: EngineOptionList, name: string) => find(list, name) !== undefined;

/**
 * The options svc sets itself (the first `ownCount` of `args`: context length, parallel sizes,
 * eager mode, tool calls, the served name), spelled as the version of `list` spells them: an option
 * that version names otherwise gets its name; one it lacks, or whose value (a tool-call parser) is
 * not among the choices it lists, is left out (with its values) and a warning. The user's arguments after them are theirs, already checked against the same list.
 */
export function spellForVersion(engine: GpuEngine, args: readonly string[], ownCount: number, list: EngineOptionList): { args: string[]; warnings: string[] } {
  const own: string[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < ownCount; i++) {
    const arg = args[i];
    const value = args[i + 1];
    const choices = find(list, arg)?.choices;
    if (choices && i + 1 < ownCount && !value.startsWith("--") && !choices.includes(value)) {
      warnings.push(`${GPU_SERVERS[engine].label} ${list.version} has no ${value} among the values of ${arg}: svc leaves it out of the options it sets.`);
      i++;
      continue;
    }
    if (!arg.startsWith("--") || has(list, arg)) {
      own.push(arg);
      continue;
    }
    const other = OTHER_SPELLINGS[engine][arg]?.find((name) => has(list, name));
    if (other) {
      own.push(other);
      continue;
    }
    warnings.push(`${GPU_SERVERS[engine].label} ${list.version} has no ${arg}: svc leaves it out of the options it sets.`);
    while (i + 1 < ownCount && !args[i + 1].startsWith("--")) i++;
  }
  // vLLM refuses auto tool choice without a parser.
  const kept = own.includes("--tool-call-parser") ? own : own.filter((arg) => arg !== "--enable-auto-tool-choice");
  return { args: [...kept, ...args.slice(ownCount)], warnings };
}
