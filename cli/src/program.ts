import { cac } from "cac";
import { VERSION } from "@svc/contracts/version";
import { loadSettings, type Settings } from "@svc/platform/config";
import { clientFromEnvironment, type SvcClient } from "@svc/client";
import { EXIT, reportError } from "./errors";
import { unknownCommand, withOptionHint } from "./suggestions";
import type { CliContext, Io } from "./io";
import { registerStart } from "./commands/start";
import { registerInfo } from "./commands/info";
import { registerInit } from "./commands/init";
import { profileGroup } from "./commands/profile";
import { modelGroup } from "./commands/model";
import { terminalPrompter, type Prompter, type PromptingContext } from "./prompt";
import { runCommand } from "./commands/run";
import { imageGroup } from "./commands/image";
import { runtimeGroup } from "./commands/runtime";
import { batchGroup } from "./commands/batch";
import { keyGroup } from "./commands/key";
import { registerUsage } from "./commands/usage";
import { registerLs } from "./commands/services/ls";
import { registerDetails } from "./commands/services/details";
import { registerLogs, registerRestart, registerRm, registerStop } from "./commands/services/lifecycle";

const COMMANDS = [registerStart, registerInfo, registerInit, registerLs, registerDetails, registerStop, registerRestart, registerRm, registerLogs, registerUsage];
/** Two-word commands (`svc profile ls`, see group.ts), and `svc run`, which parses its own arguments. */
const GROUPS = [profileGroup, modelGroup, imageGroup, runtimeGroup, keyGroup, batchGroup, runCommand];

export interface RunOptions {
  /** Asks questions; default: the terminal (stdin). Tests pass a scripted one. */
  prompter?: () => Prompter;
}

/** Runs the CLI on `args` (without the program name) and returns the exit code. */
export async function runCli(args: string[], io: Io, env: Record<string, string | undefined> = process.env, options: RunOptions = {}): Promise<number> {
  let settings: Settings | undefined;
  let client: SvcClient | undefined;
  const ctx: CliContext & PromptingContext = {
    io,
    env,
    settings: () => (settings ??= loadSettings(env)),
    client: () => {
      ctx.settings();
      return (client ??= clientFromEnvironment(env));
    },
    emit: (value, json, human) => io.out(json ? JSON.stringify(value, null, 2) : human()),
    prompter: options.prompter ?? (() => terminalPrompter()),
  };

  const cli = cac("svc");
  for (const register of COMMANDS) register(cli, ctx);
  for (const group of GROUPS) group.register(cli);
  cli.help();
  const group = GROUPS.find((g) => g.name === args[0]);
  cli.option("-v, --version", "Print the version");
  try {
    if (group) {
      await group.run(args.slice(1), ctx);
      return EXIT.ok;
    }
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
      const typed = String(cli.args[0]);
      throw unknownCommand("", typed, cli.commands.map((c) => c.name).filter(Boolean));
    }
    await cli.runMatchedCommand();
    return EXIT.ok;
  } catch (error) {
    return reportError(group ? error : withOptionHint(error, cli), io.err, settings, group ? group.name : cli.matchedCommandName);
  }
}
