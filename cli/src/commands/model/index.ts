import { defineGroup } from "../../group";
import type { CliContext } from "../../io";
import { registerModelAdd } from "./add";
import { registerModelLs } from "./ls";

/** `svc model ls|add`. */
export const modelGroup = defineGroup<CliContext>({
  name: "model",
  description: "Manage models: ls (--refresh), add <repo_id>",
  commands: [registerModelLs, (cli, ctx) => registerModelAdd(cli, ctx)],
});
