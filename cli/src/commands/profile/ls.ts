import { formatTable } from "../../output/table";
import { profilesBackend } from "./backend";
import type { RegisterProfileCommand } from "./form";

export const registerProfileLs: RegisterProfileCommand = (cli, ctx) => {
  cli
    .command("ls", "List profiles")
    .alias("list")
    .option("--json", "Print JSON")
    .action(async (options: { json?: boolean }) => {
      const profiles = await profilesBackend(ctx).list();
      ctx.emit(profiles, Boolean(options.json), () =>
        profiles.length === 0
          ? "No profiles yet: run `svc init` to create the default profile."
          : formatTable(
              ["name", "schema", "host", "user", "home", "cache"],
              profiles.map((p) =>
                p.schema === "local"
                  ? [p.name, p.schema, "-", "-", p.home_dir, p.cache_dir]
                  : [p.name, p.schema, p.port ? `${p.host}:${p.port}` : p.host, p.user, p.home, p.cache],
              ),
            ),
      );
    });
};
