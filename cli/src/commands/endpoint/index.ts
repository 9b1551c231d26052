import { readFileSync } from "node:fs";
import type { CAC } from "cac";
import { defineGroup } from "../../group";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { relativeAge } from "../../output/age";

/** The key from a file (never from the command line, where `ps` would show it): its first line, trimmed. */
function readKeyFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`--api-key-file ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  const key = text.split("\n")[0].trim();
  if (!key) throw new UsageError(`--api-key-file ${path} is empty: put the server's API key on its first line.`);
  return key;
}

function registerEndpointAdd(cli: CAC, ctx: CliContext) {
  cli
    .command("add <name> <url>", "Serve an outside OpenAI-compatible server's models through /v1, with svc's keys and usage")
    .option("--api-key-file <file>", "File holding the server's API key (stored by svc, never shown again)")
    .option("--models <models>", "The models to route there, comma-separated (default: the server's GET /v1/models)")
    .option("--json", "Print JSON")
    .action(async (name: string, url: string, flags: { apiKeyFile?: string; models?: string; json?: boolean }) => {
      const models = flags.models === undefined ? undefined : String(flags.models).split(",").map((m) => m.trim()).filter(Boolean);
      if (models && models.length === 0) throw new UsageError("--models needs model ids, e.g. --models meta-llama/Llama-3.1-8B-Instruct,gpt-4o-mini");
      if (flags.apiKeyFile !== undefined && typeof flags.apiKeyFile !== "string") throw new UsageError("--api-key-file needs a file name.");
      const apiKey = flags.apiKeyFile === undefined ? undefined : readKeyFile(flags.apiKeyFile);
      const added = await ctx.client().endpoints.add({ name: String(name), url: String(url), ...(apiKey ? { apiKey } : {}), ...(models ? { models } : {}) });
      ctx.emit(added, Boolean(flags.json), () =>
        [
          `Endpoint '${added.name}' (${added.url}) is ${added.status}${added.reason ? `: ${added.reason}` : ""}.`,
          `Its models through /v1: ${added.models.join(", ") || "none yet"}.`,
        ].join("\n"),
      );
    });
}

function registerEndpointLs(cli: CAC, ctx: CliContext) {
  cli
    .command("ls", "List outside endpoints, their models and health (never their keys)")
    .option("--json", "Print JSON")
    .action(async (flags: { json?: boolean }) => {
      const endpoints = await ctx.client().endpoints.list();
      ctx.emit(endpoints, Boolean(flags.json), () =>
        endpoints.length === 0
          ? "No outside endpoints. Add one with 'svc endpoint add <name> <url> --api-key-file <file>'."
          : formatTable(
              ["name", "url", "status", "models", "key", "checked", "reason"],
              endpoints.map((e) => [e.name, e.url, e.status, e.models.join(",") || "-", e.hasKey ? "yes" : "no", e.checkedAt ? relativeAge(e.checkedAt) : "never", e.reason ?? ""]),
            ),
      );
    });
}

function registerEndpointRm(cli: CAC, ctx: CliContext) {
  cli
    .command("rm <name>", "Remove an outside endpoint and its stored key; its models leave /v1")
    .option("--json", "Print JSON")
    .action(async (name: string, flags: { json?: boolean }) => {
      const removed = await ctx.client().endpoints.remove(String(name));
      ctx.emit(removed, Boolean(flags.json), () => `Removed endpoint '${removed.name}'.`);
    });
}

/** `svc endpoint add|ls|rm`: outside OpenAI-compatible servers behind /v1. */
export const endpointGroup = defineGroup<CliContext>({
  name: "endpoint",
  description: "Outside OpenAI-compatible servers served through /v1: add, ls, rm",
  commands: [registerEndpointAdd, registerEndpointLs, registerEndpointRm],
});
