import { UsageError } from "../../errors";
import { profilesBackend } from "./backend";
import { confirmingHostKey } from "./host-key";
import { attributeOptions, commonAttributes, collectAttributes, FIELDS, parseSchema, slurmExtras, reportChange, type AttributeOptions, type RegisterProfileCommand, SLURM_EXTRA_FLAGS } from "./form";

export const registerProfileUpdate: RegisterProfileCommand = (cli, ctx) => {
  attributeOptions(
    cli
      .command("update", "Change a profile (the default profile when --name is omitted); name and schema stay")
      .option("--name <name>", "Profile name", { default: "default" })
      .option("--schema <schema>", "Must be the profile's schema (it cannot change)"),
  ).action(async (options: AttributeOptions & { name: string | number }) => {
    const name = String(options.name);
    const backend = profilesBackend(ctx);
    const current = await backend.get(name);
    const schema = parseSchema(options.schema);
    if (schema && schema !== current.schema) {
      throw new UsageError(`a profile's schema cannot change (${name} is ${current.schema}): create a new profile with \`svc profile add --schema ${schema}\`.`);
    }
    const prompter = ctx.prompter();
    try {
      const given =
        [...FIELDS.local, ...FIELDS.slurm].some((f) => options[f.option] !== undefined) ||
        [options.port, options.identityFile, options.runtime, options.idleStop, options.engine, options.gpuMemory, options.account, options.partition, options.qos, options.hostKeyFingerprint].some((value) => value !== undefined);
      if (!given && (options.yes || !prompter.interactive)) {
        const flags = [...FIELDS[current.schema].map((f) => f.flag), ...(current.schema === "slurm" ? SLURM_EXTRA_FLAGS : [])];
        throw new UsageError(`nothing to change: pass ${flags.join(", ")}${prompter.interactive ? "" : " (there is no terminal to ask in)"}.`);
      }
      const { values } = await collectAttributes(current.schema, options, current as unknown as Record<string, string>, prompter, "update");
      const extras = { ...slurmExtras(current.schema, options), ...commonAttributes(options) };
      if (!options.json) ctx.io.err(current.schema === "slurm" && values.host !== "localhost" ? `Checking ${values.user}@${values.host} over SSH…` : "Checking folders…");
      const change = await confirmingHostKey(ctx, prompter, options, (fingerprint) =>
        backend.update(name, { ...values, ...extras, ...(fingerprint ? { host_key_fingerprint: fingerprint } : {}) }),
      );
      reportChange(ctx, change, "Updated", Boolean(options.json));
    } finally {
      prompter.close();
    }
  });
};
