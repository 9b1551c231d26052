import { defineGroup } from "../../group";
import type { CliContext } from "../../io";
import { registerRuntimeInstall } from "./install";
import { registerRuntimeLs } from "./ls";
import { registerRuntimeRm } from "./rm";

/** `svc runtime install|ls|rm`: the svc runtime on slurm profiles' clusters. */
export const runtimeGroup = defineGroup<CliContext>({
  name: "runtime",
  description: "The svc runtime on slurm clusters: install, ls, rm",
  commands: [(cli, ctx) => registerRuntimeInstall(cli, ctx), registerRuntimeLs, registerRuntimeRm],
});
