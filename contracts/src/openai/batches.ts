import { Type } from "@sinclair/typebox";
import { inDocument } from "./check";
import { nullable } from "./common";

/**
 * The Files and Batch API's shapes, from OpenAI's published OpenAPI document
 * (github.com/openai/openai-openapi: `OpenAIFile`, `ListFilesResponse`, `DeleteFileResponse`,
 * `Batch`, `ListBatchesResponse`, `BatchRequestOutput`): the required fields and their types; like
 * that document, other fields are allowed.
 */

const FILE_PURPOSES = ["assistants", "assistants_output", "batch", "batch_output", "fine-tune", "fine-tune-results", "vision", "user_data"] as const;

/** `OpenAIFile`. */
export const FileObject = inDocument("OpenAIFile", Type.Object({
  id: Type.String(),
  object: Type.Literal("file"),
  bytes: Type.Integer(),
  created_at: Type.Integer(),
  expires_at: Type.Optional(Type.Integer()),
  filename: Type.String(),
  purpose: Type.Union(FILE_PURPOSES.map((purpose) => Type.Literal(purpose))),
  status: Type.Union([Type.Literal("uploaded"), Type.Literal("processed"), Type.Literal("error")]),
  status_details: Type.Optional(Type.String()),
}));

/** `ListFilesResponse` (`GET /v1/files`). */
export const FileList = inDocument("ListFilesResponse", Type.Object({
  object: Type.String(),
  data: Type.Array(FileObject),
  first_id: Type.String(),
  last_id: Type.String(),
  has_more: Type.Boolean(),
}));

/** `DeleteFileResponse`. */
export const FileDeleted = inDocument("DeleteFileResponse", Type.Object({ id: Type.String(), object: Type.Literal("file"), deleted: Type.Boolean() }));

export const BATCH_STATUSES_OPENAI = ["validating", "failed", "in_progress", "finalizing", "completed", "expired", "cancelling", "cancelled"] as const;

const timestamp = Type.Optional(Type.Integer());

/** `Batch`. */
export const BatchObject = inDocument("Batch", Type.Object({
  id: Type.String(),
  object: Type.Literal("batch"),
  endpoint: Type.String(),
  model: Type.Optional(Type.String()),
  errors: Type.Optional(
    Type.Object({
      object: Type.Optional(Type.String()),
      data: Type.Optional(
        Type.Array(
          Type.Object({
            code: Type.Optional(Type.String()),
            message: Type.Optional(Type.String()),
            param: Type.Optional(nullable(Type.String())),
            line: Type.Optional(nullable(Type.Integer())),
          }),
        ),
      ),
    }),
  ),
  input_file_id: Type.String(),
  completion_window: Type.String(),
  status: Type.Union(BATCH_STATUSES_OPENAI.map((status) => Type.Literal(status))),
  output_file_id: Type.Optional(Type.String()),
  error_file_id: Type.Optional(Type.String()),
  created_at: Type.Integer(),
  in_progress_at: timestamp,
  expires_at: timestamp,
  finalizing_at: timestamp,
  completed_at: timestamp,
  failed_at: timestamp,
  expired_at: timestamp,
  cancelling_at: timestamp,
  cancelled_at: timestamp,
  request_counts: Type.Optional(Type.Object({ total: Type.Integer(), completed: Type.Integer(), failed: Type.Integer() })),
  metadata: Type.Optional(nullable(Type.Record(Type.String(), Type.String({ maxLength: 512 })))),
}));

/** `ListBatchesResponse` (`GET /v1/batches`). */
export const BatchList = inDocument("ListBatchesResponse", Type.Object({
  object: Type.Literal("list"),
  data: Type.Array(BatchObject),
  first_id: Type.Optional(Type.String()),
  last_id: Type.Optional(Type.String()),
  has_more: Type.Boolean(),
}));

/** `BatchRequestOutput`: one line of a batch's output or error file. */
export const BatchRequestOutput = Type.Object({
  id: Type.String(),
  custom_id: Type.String(),
  response: nullable(Type.Object({ status_code: Type.Integer(), request_id: Type.String(), body: Type.Record(Type.String(), Type.Unknown()) })),
  error: nullable(Type.Object({ code: Type.String(), message: Type.String() })),
});
