import { t } from "elysia";
import { RuntimeInstallState, RuntimeVersionId } from "@svc/contracts";

const profile = t.Optional(t.String({ minLength: 1, maxLength: 256, description: "A slurm profile; default: the default profile." }));

export const ProfileQuery = t.Object({ profile });

export const RemoveQuery = t.Object({
  profile,
  version: t.Optional(RuntimeVersionId),
});

export const InstallsQuery = t.Object({ profile: t.Optional(t.String({ maxLength: 256 })), state: t.Optional(RuntimeInstallState) });

export const InstallParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
