import { cac, type CAC } from "cac";
import { VERSION } from "@svc/contracts/version";
import { EXIT, reportError } from "./errors";
import { unknownCommand, withOptionHint } from "./suggestions";
import type { CliContext, Io } from "./io";
import { createContext } from "./context";
import type { CommandGroup } from "./group";
import { terminalPrompter, type Prompter, type PromptingContext } from "./prompt";

type Register = (cli: CAC, ctx: CliContext & PromptingContext) => void;

/**
 * Commands are loaded when they are run, so `svc ls` loads `ls` and not every command's imports
 * (start-up time is mostly module loading). Help and unknown commands load them all.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  start: () => import("./commands/start").then((m) => m.registerStart),
  info: () => import("./commands/info").then((m) => m.registerInfo),
  init: () => import("./commands/init").then((m) => m.registerInit),
  ls: () => import("./commands/services/ls").then((m) => m.registerLs),
  details: () => import("./commands/services/details").then((m) => m.registerDetails),
  stop: () => import("./commands/services/lifecycle").then((m) => m.registerStop),
  restart: () => import("./commands/services/lifecycle").then((m) => m.registerRestart),
  rm: () => import("./commands/services/lifecycle").then((m) => m.registerRm),
  logs: () => import("./commands/services/lifecycle").then((m) => m.registerLogs),
  scale: () => import("./commands/deployments/scale").then((m) => m.registerScale),
  usage: () => import("./commands/usage").then((m) => m.registerUsage),
};
/** Two-word commands (`svc profile ls`, see group.ts), and `svc run`, which parses its own arguments. */
const GROUPS: Record<string, () => Promise<CommandGroup<CliContext & PromptingContext>>> = {
  profile: () => import("./commands/profile").then((m) => m.profileGroup as CommandGroup<CliContext & PromptingContext>),
  model: () => import("./commands/model").then((m) => m.modelGroup),
  image: () => import("./commands/image").then((m) => m.imageGroup),
  runtime: () => import("./commands/runtime").then((m) => m.runtimeGroup),
  key: () => import("./commands/key").then((m) => m.keyGroup),
  endpoint: () => import("./commands/endpoint").then((m) => m.endpointGroup),
  adapter: () => import("./commands/adapter").then((m) => m.adapterGroup),
  batch: () => import("./commands/batch").then((m) => m.batchGroup),
  run: () => import("./commands/run").then((m) => m.runCommand),
};

export interface RunOptions {
  /** Asks questions; default: the terminal (stdin). Tests pass a scripted one. */
  prompter?: () => Prompter;
}

/** Runs the CLI on `args` (without the program name) and returns the exit code. */
export async function runCli(args: string[], io: Io, env: Record<string, string | undefined> = process.env, options: RunOptions = {}): Promise<number> {
  const { ctx: base, loadedSettings } = createContext(io, env);
  const ctx: CliContext & PromptingContext = Object.assign(base, { prompter: options.prompter ?? (() => terminalPrompter()) });

  const cli = cac("svc");
  const first = args[0];
  const group = first !== undefined && Object.hasOwn(GROUPS, first) ? await GROUPS[first]() : undefined;
  if (first !== undefined && Object.hasOwn(COMMANDS, first)) (await COMMANDS[first]())(cli, ctx);
  else if (!group) {
    for (const load of Object.values(COMMANDS)) (await load())(cli, ctx);
    for (const load of Object.values(GROUPS)) (await load()).register(cli);
  }
  cli.help();
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
    return reportError(group ? error : withOptionHint(error, cli), io.err, loadedSettings(), group ? group.name : cli.matchedCommandName);
  }
}
