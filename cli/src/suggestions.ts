import type { CAC } from "cac";
import { closest, didYouMean } from "@svc/contracts";
import { UsageError } from "./errors";

/** The long options (`--home-dir`) a cac program's matched command and its global options take. */
function longOptions(cli: CAC): string[] {
  const commands = [cli.matchedCommand, cli.globalCommand].filter((command) => command !== undefined);
  return commands.flatMap((command) => command.options.flatMap((option) => option.rawName.match(/--[A-Za-z0-9-]+/g) ?? []));
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * cac's "Unknown option `--x`" with the closest option the command takes; any other error as it
 * was. cac writes a dashed option in camel case (`--homeDirr`): it is turned back as typed.
 */
export function withOptionHint(error: unknown, cli: CAC): unknown {
  const unknown = error instanceof Error && error.name === "CACError" ? /^Unknown option `(-{1,2})([^`]+)`/.exec(error.message) : null;
  if (!unknown) return error;
  const typed = `${unknown[1]}${kebab(unknown[2])}`;
  const hint = didYouMean(closest(typed, [...new Set(longOptions(cli))]));
  return new UsageError(`unknown option ${typed}.${hint}`);
}

/** "unknown command 'x'." with the closest commands, then the list; `prefix` is the group (`svc model `) or "". */
export function unknownCommand(prefix: string, typed: string, names: string[]): UsageError {
  const hint = didYouMean(closest(typed, names), (name) => `'${prefix}${name}'`);
  return new UsageError(`unknown command '${prefix}${typed}'.${hint} Commands: ${names.join(", ")}.`);
}
