import { UsageError } from "../../errors";
import type { ProfileCliContext } from "./form";
import { attributeOptions, commonAttributes, collectAttributes, newProfileDefaults, parseSchema, slurmExtras, reportChange, type AttributeOptions, type RegisterProfileCommand, type SchemaName } from "./form";
import { profilesBackend } from "./backend";
import { confirmingHostKey } from "./host-key";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const NAME_RULE = "1–63 characters: letters, digits, '.', '_' or '-', starting with a letter or digit";

/** Creates a profile from options and answers; shared by `svc profile add` and `svc init`. */
export async function addProfile(ctx: ProfileCliContext, options: AttributeOptions & { name?: string | number | boolean }, fixedName?: string): Promise<void> {
  const prompter = ctx.prompter();
  try {
    let name = fixedName ?? (options.name === undefined || options.name === true ? undefined : String(options.name));
    if (name === undefined) {
      if (options.yes || !prompter.interactive) throw new UsageError(`--name is required${prompter.interactive ? " with --yes" : " (there is no terminal to ask in)"}.`);
      name = await prompter.text("Profile name", { flag: "--name", validate: (answer) => (NAME.test(answer) ? undefined : NAME_RULE) });
    }
    let schema: SchemaName | undefined = parseSchema(options.schema);
    if (!schema) {
      schema = !options.yes && prompter.interactive ? await prompter.choice<SchemaName>("Schema", ["local", "slurm"], { flag: "--schema", default: "local" }) : "local";
    }
    const { values } = await collectAttributes(schema, options, newProfileDefaults(ctx), prompter, "create");
    const extras = { ...slurmExtras(schema, options), ...commonAttributes(options) };
    if (!options.json) ctx.io.err(schema === "slurm" && values.host !== "localhost" ? `Checking ${values.user}@${values.host} over SSH…` : "Checking folders…");
    const backend = profilesBackend(ctx);
    const change = await confirmingHostKey(ctx, prompter, options, (fingerprint) =>
      backend.create({ name: name!, schema: schema!, ...values, ...extras, ...(fingerprint ? { host_key_fingerprint: fingerprint } : {}) }),
    );
    reportChange(ctx, change, "Created", Boolean(options.json));
  } finally {
    prompter.close();
  }
}

export const registerProfileAdd: RegisterProfileCommand = (cli, ctx) => {
  attributeOptions(
    cli
      .command("add", "Create a profile (asks for what the options leave out)")
      .alias("create")
      .option("--name <name>", "Profile name (unique)")
      .option("--schema <schema>", "local or slurm"),
  ).action((options: AttributeOptions & { name?: string }) => addProfile(ctx, options));
};
