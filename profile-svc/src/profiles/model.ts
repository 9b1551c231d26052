import { t } from "elysia";

/** Schemas used only by the profile routes (the shared ones are in @svc/contracts). */
export const ProfileParams = t.Object({ name: t.String({ minLength: 1, maxLength: 256, description: "Profile name." }) });
