import { cac } from "cac";
import { VERSION } from "@svc/contracts/version";
import { loadSettings, type Settings } from "@svc/platform/config";
import { clientFromEnvironment, type SvcClient } from "@svc/client";
import { EXIT, reportError, UsageError } from "./errors";
import type { CliContext, Io } from "./io";
import { registerStart } from "./commands/start";
import { registerInfo } from "./commands/info";

const COMMANDS = [registerStart, registerInfo];

/** Runs the CLI on `args` (without the program name) and returns the exit code. */
export async function runCli(args: string[], io: Io, env: Record<string, string | undefined> = process.env): Promise<number> {
  let settings: Settings | undefined;
  let client: SvcClient | undefined;
  const ctx: CliContext = {
    io,
    env,
    settings: () => (settings ??= loadSettings(env)),
    client: () => {
      ctx.settings();
      return (client ??= clientFromEnvironment(env));
    },
    emit: (value, json, human) => io.out(json ? JSON.stringify(value, null, 2) : human()),
  };

  const cli = cac("svc");
  for (const register of COMMANDS) register(cli, ctx);
  cli.help();
  cli.option("-v, --version", "Print the version");
  try {
    cli.parse(["bun", "svc", ...args], { run: false });
    if (cli.options.help) return EXIT.ok;
    if (cli.options.version && !cli.matchedCommand) {
      io.out(`svc ${VERSION}`);
      return EXIT.ok;
    }
    if (!cli.matchedCommand) {
      if (cli.args.length === 0) {
        cli.outputHelp();
        return EXIT.ok;
      }
      const names = cli.commands.map((c) => c.name).filter(Boolean).join(", ");
      throw new UsageError(`unknown command '${cli.args[0]}'. Commands: ${names}.`);
    }
    await cli.runMatchedCommand();
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.err, settings, cli.matchedCommandName);
  }
}
