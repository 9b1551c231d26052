import { badRequest } from "@svc/contracts";
import { CPU_TEXT_GENERATION_OPTIONS, describeEngineOptions, IGNORED_ON_CPU, parseEngineArgs } from "@svc/contracts/engine-options";

/**
 * Engine arguments for the project's CPU text-generation runtime, checked against the one table
 * it parses them with: an unknown option or a bad value is refused here, before anything starts,
 * with the accepted list. Returns a warning for each option that does nothing on CPU.
 */
export function checkCpuEngineArgs(args: readonly string[]): string[] {
  const { values, unknown, problems } = parseEngineArgs(args, CPU_TEXT_GENERATION_OPTIONS);
  const accepted = `The CPU text-generation runtime accepts these llama.cpp server options:\n  ${describeEngineOptions(CPU_TEXT_GENERATION_OPTIONS).join("\n  ")}`;
  if (unknown.length > 0) {
    const options = unknown.filter((arg) => arg.startsWith("-"));
    const what = options.length > 0 ? `unknown engine option${options.length > 1 ? "s" : ""} ${options.join(", ")}` : `unexpected engine argument ${JSON.stringify(unknown[0])}`;
    throw badRequest(`${what}. ${accepted}`, { accepted: CPU_TEXT_GENERATION_OPTIONS.map((option) => option.name) });
  }
  if (problems.length > 0) throw badRequest(`${problems.join(" ")} ${accepted}`);
  return IGNORED_ON_CPU.filter((name) => values[name] !== undefined).map((name) => `${name} is ignored: the CPU runtime keeps every layer on the CPU.`);
}
