import { closest, didYouMean } from "@svc/contracts";
import type { EngineOptionList, UpstreamOption } from "./option-list";
import { pinnedList } from "./versions";

/** The pinned version's option list of each engine (every version's: versions.ts). */
export const ENGINE_OPTIONS: Record<"vllm" | "sglang", EngineOptionList> = { vllm: pinnedList("vllm"), sglang: pinnedList("sglang") };

export interface UpstreamArgs {
  /** Each given option by its long name, with its value(s) (none for a flag). */
  given: Map<string, string[]>;
  /** What is wrong, each in words with what to write instead. */
  problems: string[];
}

/** How the engine's parser finds an option: its spelling, a unique prefix of a long one (argparse), vLLM's `_` for `-`. */
function lookup(list: EngineOptionList, name: string): { option?: UpstreamOption; ambiguous?: string[] } {
  const spelled = list.engine === "vllm" && name.startsWith("--") ? `--${name.slice(2).replaceAll("_", "-")}` : name;
  const exact = list.options.find((option) => option.name === spelled || option.aliases.includes(spelled));
  if (exact) return { option: exact };
  if (!spelled.startsWith("--") || spelled.length < 4) return {};
  const prefixed = list.options.filter((option) => [option.name, ...option.aliases].some((each) => each.startsWith(spelled)));
  if (prefixed.length === 1) return { option: prefixed[0] };
  return prefixed.length > 1 ? { ambiguous: prefixed.map((option) => option.name) } : {};
}

const label = (list: EngineOptionList) => `${list.engine === "vllm" ? "vLLM" : "SGLang"} ${list.version}`;

/**
 * Reads `args` as the engine's own parser would: `--name value`, `--name=value`, values of options
 * that take several, flags, aliases and unique prefixes. An unknown option is a problem naming the
 * nearest real ones; so are a flag given a value, a missing value and a value outside its choices.
 */
export function readUpstreamArgs(args: readonly string[], list: EngineOptionList): UpstreamArgs {
  const result: UpstreamArgs = { given: new Map(), problems: [] };
  const names = list.options.flatMap((option) => [option.name, ...option.aliases]);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("-") || /^-\d/.test(arg)) {
      result.problems.push(`${JSON.stringify(arg)} is not an option of ${label(list)}: give each value after its option.`);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const { option, ambiguous } = lookup(list, name);
    if (!option) {
      result.problems.push(
        ambiguous
          ? `${name} is ambiguous in ${label(list)}: it could be ${ambiguous.slice(0, 5).join(", ")}.`
          : `${name} is not an option of ${label(list)}.${didYouMean(closest(name, names).slice(0, 3))}`,
      );
      while (args[i + 1] !== undefined && !args[i + 1].startsWith("-")) i++;
      continue;
    }
    const values: string[] = eq > 0 ? [arg.slice(eq + 1)] : [];
    if (option.value === "none") {
      if (values.length > 0) result.problems.push(`${name} is a flag of ${label(list)} and takes no value.`);
    } else if (eq < 0) {
      while (args[i + 1] !== undefined && (!args[i + 1].startsWith("-") || /^-\d/.test(args[i + 1]))) values.push(args[++i]);
      if (values.length === 0 && option.value === "required") result.problems.push(`${name} needs a value.`);
    }
    const outside = option.choices ? values.filter((value) => !option.choices!.includes(value)) : [];
    if (outside.length > 0) result.problems.push(`${name} ${JSON.stringify(outside[0])}: use one of ${option.choices!.join(", ")}.${didYouMean(closest(outside[0], option.choices!))}`);
    result.given.set(option.name, values);
  }
  return result;
}
