import { cac, type CAC } from "cac";
import { unknownCommand, withOptionHint } from "./suggestions";

/**
 * A command group: `svc <group> <command> [options]`, e.g. `svc profile ls`. cac matches only
 * single-word commands, so the root program lists the group as one command and hands the rest of
 * argv to a sub-program named `svc <group>` with the group's own commands, help and usage errors.
 */
export interface CommandGroup<Ctx> {
  name: string;
  description: string;
  /** Lists the group in the root program's help. */
  register(root: CAC): void;
  /** Runs `args` (what follows the group name) in the group's sub-program. */
  run(args: string[], ctx: Ctx): Promise<void>;
}

export function defineGroup<Ctx>(spec: {
  name: string;
  description: string;
  commands: Array<(cli: CAC, ctx: Ctx) => void>;
}): CommandGroup<Ctx> {
  return {
    name: spec.name,
    description: spec.description,
    register(root) {
      root.command(`${spec.name} <command>`, spec.description).allowUnknownOptions();
    },
    async run(args, ctx) {
      const cli = cac(`svc ${spec.name}`);
      for (const register of spec.commands) register(cli, ctx);
      cli.help((sections) => withOwnVersionOption(sections, cli.matchedCommand));
      try {
        cli.parse(["bun", `svc ${spec.name}`, ...args], { run: false });
        if (cli.options.help) return;
        if (!cli.matchedCommand) {
          if (cli.args.length === 0) {
            cli.outputHelp();
            return;
          }
          const typed = String(cli.args[0]);
          throw unknownCommand(`svc ${spec.name} `, typed, cli.commands.flatMap((c) => [c.name, ...c.aliasNames]));
        }
        await cli.runMatchedCommand();
      } catch (error) {
        throw withOptionHint(error, cli);
      }
    },
  };
}

type HelpSection = { title?: string; body: string };
type CacCommand = NonNullable<CAC["matchedCommand"]>;

/**
 * cac drops every option named `version` from a subcommand's help (it keeps the name for the
 * program's own version), so a command's own `--version V` (e.g. `svc runtime rm`) would go
 * unlisted: the Options section is written again from the command's options.
 */
function withOwnVersionOption(sections: HelpSection[], command: CacCommand | undefined): HelpSection[] {
  if (!command?.options.some((option) => option.name === "version")) return sections;
  const options = [...command.options, ...command.cli.globalCommand.options];
  const width = Math.max(...options.map((option) => option.rawName.length));
  const body = options
    .map((option) => `  ${option.rawName.padEnd(width)}  ${option.description} ${option.config.default === undefined ? "" : `(default: ${option.config.default})`}`)
    .join("\n");
  const rest = sections.filter((section) => section.title !== "Options");
  const at = sections.findIndex((section) => section.title === "Options");
  rest.splice(at === -1 ? rest.length : at, 0, { title: "Options", body });
  return rest;
}
