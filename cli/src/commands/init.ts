import { addProfile } from "./profile/add";
import { profilesBackend } from "./profile/backend";
import { attributeOptions, describeProfile, type AttributeOptions, type RegisterProfileCommand } from "./profile/form";

/**
 * `svc init`: creates the default profile (asking for what the options leave out). Works whether or
 * not the application is running: without it, it writes $SVC_HOME_DIR/profiles.cfg directly.
 */
export const registerInit: RegisterProfileCommand = (cli, ctx) => {
  attributeOptions(
    cli.command("init", "Create the default profile (asks; options and --yes let scripts run it without questions)").option("--schema <schema>", "local or slurm (default local)"),
  ).action(async (options: AttributeOptions) => {
    const existing = (await profilesBackend(ctx).list()).find((p) => p.name === "default");
    if (existing) {
      if (options.json) return ctx.io.out(JSON.stringify({ profile: existing, notices: ["The default profile already exists."] }, null, 2));
      ctx.io.out(`The default profile already exists; nothing to do (change it with \`svc profile update\`).\n${describeProfile(existing)}`);
      return;
    }
    await addProfile(ctx, options, "default");
  });
};
