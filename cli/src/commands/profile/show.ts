import type { ClusterGpus } from "@svc/contracts";
import { profilesBackend } from "./backend";
import { describeProfile, type RegisterProfileCommand } from "./form";
import { describePartitions } from "./partitions";
import { describeEngineVersions, readEngineVersions } from "./engine-versions";

export const registerProfileShow: RegisterProfileCommand = (cli, ctx) => {
  cli
    .command("show", "Show a profile (the default profile when --name is omitted), its partitions and GPUs, and the vLLM and SGLang versions found there")
    .option("--name <name>", "Profile name", { default: "default" })
    .option("--refresh", "Read the cluster's partitions and GPUs again (otherwise: as the last profile check read them)")
    .option("--json", "Print JSON (the profile, with its partitions and GPUs under `gpus` and the engine versions found under `engineVersions`)")
    .action(async (options: { name: string | number; refresh?: boolean; json?: boolean }) => {
      const backend = profilesBackend(ctx);
      const profile = await backend.get(String(options.name));
      // The profile is shown even when its cluster cannot be read now.
      let gpus: ClusterGpus | undefined;
      let unread: string | undefined;
      try {
        gpus = await backend.gpus(profile.name, { refresh: Boolean(options.refresh) });
      } catch (error) {
        unread = error instanceof Error ? error.message : String(error);
      }
      if (unread) ctx.io.err(`Partitions and GPUs could not be read: ${unread}`);
      const engineVersions = await readEngineVersions(ctx, profile.name);
      ctx.emit({ ...profile, ...(gpus ? { gpus } : {}), ...(engineVersions ? { engineVersions } : {}) }, Boolean(options.json), () =>
        [describeProfile(profile), ...(gpus ? ["", describePartitions(gpus)] : []), ...(engineVersions?.length ? ["", describeEngineVersions(engineVersions)] : [])].join("\n"),
      );
    });
};
