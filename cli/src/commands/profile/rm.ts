import { UsageError } from "../../errors";
import { profilesBackend } from "./backend";
import type { RegisterProfileCommand } from "./form";

export const registerProfileRm: RegisterProfileCommand = (cli, ctx) => {
  cli
    .command("rm", "Remove a profile (asks first; the default profile cannot be removed)")
    .alias("remove")
    .option("--name <name>", "Profile name", { default: "default" })
    .option("--yes", "Do not ask for confirmation")
    .action(async (options: { name: string | number; yes?: boolean }) => {
      const name = String(options.name);
      const backend = profilesBackend(ctx);
      const profile = await backend.get(name);
      // The default profile is refused by the service whatever the answer: no point asking.
      if (!options.yes && name !== "default") {
        const prompter = ctx.prompter();
        try {
          if (!prompter.interactive) {
            throw new UsageError(`removing profile ${name} needs confirmation, but there is no terminal to ask in: pass --yes to remove it without asking.`);
          }
          const sure = await prompter.confirm(`Remove profile ${name} (${profile.schema})?`, { flag: "--yes" });
          if (!sure) {
            ctx.io.err(`Kept profile ${name}.`);
            return;
          }
        } finally {
          prompter.close();
        }
      }
      await backend.remove(name);
      ctx.io.out(`Removed profile ${name}.`);
    });
};
