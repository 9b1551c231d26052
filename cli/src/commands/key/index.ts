import type { CAC } from "cac";
import { KEY_EXPIRY_PATTERN } from "@svc/contracts";
import { defineGroup } from "../../group";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { relativeAge } from "../../output/age";

function registerKeyCreate(cli: CAC, ctx: CliContext) {
  cli
    .command("create", "Create an API key for the OpenAI endpoint /v1; prints the key once")
    .option("--name <name>", "Who or what the key is for (unique)")
    .option("--models <models>", "Limit the key to these repo ids, comma-separated (owner/a,owner/b)")
    .option("--expires <when>", "30d, 12h, 90m, 2w, or a date such as 2027-01-31")
    .option("--json", "Print JSON")
    .action(async (flags: { name?: string; models?: string; expires?: string | number; json?: boolean }) => {
      if (!flags.name || typeof flags.name !== "string") throw new UsageError("give the key a name: svc key create --name alice");
      const models = flags.models === undefined ? undefined : String(flags.models).split(",").map((m) => m.trim()).filter(Boolean);
      if (models && models.length === 0) throw new UsageError("--models needs repo ids, e.g. --models owner/a,owner/b");
      const expires = flags.expires === undefined ? undefined : String(flags.expires);
      if (expires !== undefined && !new RegExp(KEY_EXPIRY_PATTERN).test(expires)) throw new UsageError(`--expires ${expires}: give a duration (30d, 12h, 90m, 2w) or a date such as 2027-01-31.`);
      const created = await ctx.client().keys.create({ name: flags.name, ...(models ? { models } : {}), ...(expires ? { expires } : {}) });
      ctx.emit(created, Boolean(flags.json), () =>
        [
          created.key,
          `Key '${created.name}' (${created.models ? created.models.join(", ") : "every model"}${created.expiresAt ? `, expires ${created.expiresAt}` : ""}).`,
          "It is shown only now: svc keeps a hash. Use it as the OpenAI API key with base URL <svc>/v1.",
        ].join("\n"),
      );
    });
}

function registerKeyLs(cli: CAC, ctx: CliContext) {
  cli
    .command("ls", "List API keys (never the keys themselves)")
    .option("--json", "Print JSON")
    .action(async (flags: { json?: boolean }) => {
      const keys = await ctx.client().keys.list();
      ctx.emit(keys, Boolean(flags.json), () =>
        keys.length === 0
          ? "No API keys. Create one with 'svc key create --name <name>'."
          : formatTable(
              ["name", "key", "models", "created", "expires", "last used"],
              keys.map((k) => [k.name, `${k.prefix}…`, k.models ? k.models.join(",") : "all", relativeAge(k.createdAt), k.expired ? "expired" : (k.expiresAt ?? "never"), k.lastUsedAt ? relativeAge(k.lastUsedAt) : "never"]),
            ),
      );
    });
}

function registerKeyRm(cli: CAC, ctx: CliContext) {
  cli
    .command("rm <key>", "Remove an API key (by name or id); it is refused from the next request on")
    .option("--json", "Print JSON")
    .action(async (ref: string, flags: { json?: boolean }) => {
      const removed = await ctx.client().keys.remove(String(ref));
      ctx.emit(removed, Boolean(flags.json), () => `Removed key '${removed.name}'.`);
    });
}

/** `svc key create|ls|rm`: API keys for people using /v1. */
export const keyGroup = defineGroup<CliContext>({
  name: "key",
  description: "API keys for the OpenAI endpoint /v1: create, ls, rm",
  commands: [registerKeyCreate, registerKeyLs, registerKeyRm],
});
