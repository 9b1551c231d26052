import type { CAC } from "cac";
import { KEY_LIMIT_LABELS, limitsSummary, type CreateKeyRequest } from "@svc/contracts";
import { defineGroup } from "../../group";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { relativeAge } from "../../output/age";
import { keySummary, tierText } from "./format";
import { keyFieldsFrom, LIMIT_OPTIONS, TIER_DESCRIPTION, WEIGHT_DESCRIPTION } from "./policy-options";

/** The options create and update share: limits, tier, weight. */
function withPolicyOptions(command: ReturnType<CAC["command"]>, update: boolean) {
  for (const { flag, field } of LIMIT_OPTIONS) command.option(`${flag} <n>`, `${KEY_LIMIT_LABELS[field]}${field === "requestsPerMinute" || field === "maxParallel" ? "" : ", prompt + completion"}${update ? "; none: no limit" : ""}`);
  return command.option("--tier <tier>", TIER_DESCRIPTION).option("--weight <n>", WEIGHT_DESCRIPTION).option("--json", "Print JSON");
}

function registerKeyCreate(cli: CAC, ctx: CliContext) {
  const command = cli
    .command("create", "Create an API key for the OpenAI endpoint /v1; prints the key once")
    .option("--name <name>", "Who or what the key is for (unique)")
    .option("--models <models>", "Limit the key to these repo ids, comma-separated (owner/a,owner/b)")
    .option("--expires <when>", "30d, 12h, 90m, 2w, or a date such as 2027-01-31");
  withPolicyOptions(command, false)
    .example("svc key create --name alice --rpm 60 --tpm 20000 --max-parallel 4 --daily-tokens 2000000 --tier default")
    .action(async (flags: Record<string, unknown>) => {
      if (!flags.name || typeof flags.name !== "string") throw new UsageError("give the key a name: svc key create --name alice");
      const request = { name: flags.name, ...keyFieldsFrom(flags, false) } as CreateKeyRequest;
      const created = await ctx.client().keys.create(request);
      ctx.emit(created, Boolean(flags.json), () =>
        [created.key, keySummary(created), "It is shown only now: svc keeps a hash. Use it as the OpenAI API key with base URL <svc>/v1."].join("\n"),
      );
    });
}

function registerKeyUpdate(cli: CAC, ctx: CliContext) {
  const command = cli
    .command("update <key>", "Change a key's limits, tier, weight, models or expiry (by name or id); the key itself stays the same")
    .option("--models <models>", "The repo ids it may use, comma-separated (none: every model)")
    .option("--expires <when>", "30d, 12h, 90m, 2w, a date such as 2027-01-31, or never");
  withPolicyOptions(command, true)
    .example("svc key update alice --tpm 20000 --monthly-tokens none --tier flex")
    .action(async (ref: string, flags: Record<string, unknown>) => {
      const request = keyFieldsFrom(flags, true);
      if (Object.keys(request).length === 0) throw new UsageError(`say what to change, e.g. svc key update ${ref} --rpm 60 (options: ${LIMIT_OPTIONS.map((o) => o.flag).join(", ")}, --tier, --weight, --models, --expires).`);
      const updated = await ctx.client().keys.update(String(ref), request);
      ctx.emit(updated, Boolean(flags.json), () => `Updated. ${keySummary(updated)}`);
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
              ["name", "key", "models", "limits", "tier", "created", "expires", "last used"],
              keys.map((k) => [
                k.name,
                `${k.prefix}…`,
                k.models ? k.models.join(",") : "all",
                limitsSummary(k.limits),
                tierText(k),
                relativeAge(k.createdAt),
                k.expired ? "expired" : (k.expiresAt ?? "never"),
                k.lastUsedAt ? relativeAge(k.lastUsedAt) : "never",
              ]),
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

/** `svc key create|ls|update|rm`: API keys for people using /v1. */
export const keyGroup = defineGroup<CliContext>({
  name: "key",
  description: "API keys for the OpenAI endpoint /v1: create, ls, update, rm",
  commands: [registerKeyCreate, registerKeyLs, registerKeyUpdate, registerKeyRm],
});
