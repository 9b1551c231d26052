import type { FoundEngineVersion } from "@svc/contracts";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";

/** The engine versions found where the profile runs them, or undefined when the application is not running or cannot say. */
export async function readEngineVersions(ctx: CliContext, profile: string): Promise<FoundEngineVersion[] | undefined> {
  try {
    return await ctx.client().runtimes.engineVersions(profile);
  } catch {
    return undefined;
  }
}

export function describeEngineVersions(found: FoundEngineVersion[]): string {
  const rows = found.map((each) => [each.engine, each.version ?? "-", each.image ?? "(bare job)", each.how, `${each.foundAt.slice(0, 16).replace("T", " ")} UTC`]);
  return ["Engine versions (where this profile runs them; read again after an hour; svc run checks engine arguments against these):", formatTable(["engine", "version", "image", "found in", "read"], rows)].join("\n");
}
