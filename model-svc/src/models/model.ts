import { Type } from "@sinclair/typebox";
import { ModelKind, TaskName } from "@svc/contracts";

/** Query of GET /api/models as the controller validates it (free text, checked by the service). */
export const ListQuery = Type.Object({
  profile: Type.Optional(Type.String({ maxLength: 63, description: "Only this profile's models." })),
  image: Type.Optional(TaskName),
  repo: Type.Optional(Type.String({ maxLength: 193, description: "Only this repository (<owner>/<name>)." })),
  kind: Type.Optional(ModelKind),
});
