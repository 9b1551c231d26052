import { Type } from "@sinclair/typebox";
import { FilePatternList, REPO_ID_RULE, REVISION_RULE } from "@svc/contracts";

/**
 * Body of POST /api/models/downloads as the controller takes it: free text of bounded length, so
 * that the service can answer a malformed repo id or revision with a 400 naming the expected shape
 * (the shapes themselves are those of DownloadRequest in @svc/contracts).
 */
export const DownloadBody = Type.Object(
  {
    repo: Type.String({ maxLength: 256, description: `Model repository id: ${REPO_ID_RULE}.`, examples: ["openai/whisper-tiny"] }),
    revision: Type.Optional(Type.String({ maxLength: 256, description: `Default main. ${REVISION_RULE}.` })),
    profile: Type.Optional(Type.String({ maxLength: 63, description: "Local profile to download into (its home_dir/models); default: `default`." })),
    include: Type.Optional(FilePatternList("Download only the files matching one of these")),
    exclude: Type.Optional(FilePatternList("Leave out the files matching one of these")),
  },
  { additionalProperties: false },
);

export const TaskParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
