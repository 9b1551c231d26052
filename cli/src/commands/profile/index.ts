import { defineGroup } from "../../group";
import type { ProfileCliContext } from "./form";
import { registerProfileAdd } from "./add";
import { registerProfileLs } from "./ls";
import { registerProfileRm } from "./rm";
import { registerProfileShow } from "./show";
import { registerProfileUpdate } from "./update";

/** `svc profile ls|add|show|update|rm`. */
export const profileGroup = defineGroup<ProfileCliContext>({
  name: "profile",
  description: "Manage profiles: ls, add (create), show, update, rm",
  commands: [registerProfileLs, registerProfileAdd, registerProfileShow, registerProfileUpdate, registerProfileRm],
});
