import { Type, type Static } from "@sinclair/typebox";

/** The one error body every API route returns with a 4xx or 5xx status. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: "Stable machine-readable code, e.g. `unauthorized`, `invalid_request`." }),
    message: Type.String({ description: "What went wrong and what to do about it." }),
    details: Type.Optional(Type.Unknown()),
  },
  { $id: "ErrorBody" },
);
export type ErrorBody = Static<typeof ErrorBody>;
