import { Type } from "@sinclair/typebox";

const open = { additionalProperties: true };

/** What /api/openapi.json answers: an OpenAPI 3.1 document (its own schema is OpenAPI's). */
export const OpenApiDocument = Type.Object(
  {
    openapi: Type.String({ pattern: "^3\\.1\\.\\d+$" }),
    info: Type.Object({ title: Type.String(), version: Type.String() }, open),
    paths: Type.Record(Type.String(), Type.Object({}, open)),
  },
  { ...open, description: "The OpenAPI 3.1 document of the REST API." },
);
