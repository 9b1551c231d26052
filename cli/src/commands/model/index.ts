import { defineGroup } from "../../group";
import type { CliContext } from "../../io";
import { registerModelAdd } from "./add";
import { registerModelLs } from "./ls";
import { registerModelShow } from "./show";

/** `svc model ls|show|add`. */
export const modelGroup = defineGroup<CliContext>({
  name: "model",
  description: "Manage models: ls (--refresh), show <repo_id>, add <repo_id>",
  commands: [registerModelLs, registerModelShow, (cli, ctx) => registerModelAdd(cli, ctx)],
});
