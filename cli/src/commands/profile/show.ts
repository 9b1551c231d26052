import { profilesBackend } from "./backend";
import { describeProfile, type RegisterProfileCommand } from "./form";

export const registerProfileShow: RegisterProfileCommand = (cli, ctx) => {
  cli
    .command("show", "Show a profile (the default profile when --name is omitted)")
    .option("--name <name>", "Profile name", { default: "default" })
    .option("--json", "Print JSON")
    .action(async (options: { name: string | number; json?: boolean }) => {
      const profile = await profilesBackend(ctx).get(String(options.name));
      ctx.emit(profile, Boolean(options.json), () => describeProfile(profile));
    });
};
