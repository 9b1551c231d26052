import type { CAC } from "cac";
import { defineGroup } from "../../group";
import type { CliContext } from "../../io";
import type { PromptingContext } from "../../prompt";
import { registerBatchDetails, registerBatchLs, registerBatchResume, registerBatchRm, registerBatchStop } from "./commands";
import { runBatch } from "./run";

const group = defineGroup<CliContext & PromptingContext>({
  name: "batch",
  description: "Batch jobs: run a model over a folder or an OpenAI batch file: run, ls, details, stop, resume, rm",
  commands: [
    (cli: CAC) => {
      cli.command("run", "Start a batch job (svc batch run --help)").allowUnknownOptions();
    },
    registerBatchLs,
    registerBatchDetails,
    registerBatchStop,
    registerBatchResume,
    registerBatchRm,
  ],
});

/** `svc batch …`: `run` parses its own arguments (job options as for svc run), the others are ordinary commands. */
export const batchGroup = {
  ...group,
  async run(args: string[], ctx: CliContext & PromptingContext) {
    if (args[0] === "run") return runBatch(args.slice(1), ctx);
    return group.run(args, ctx);
  },
};
