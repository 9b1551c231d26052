import { Type, type Static } from "@sinclair/typebox";
import { GPU_ENGINES } from "./service-values";
import { literalUnion } from "./literal-union";

/** A vLLM or SGLang version as `--engine-version` takes it and the engines print theirs: `0.11.1`, `v0.13.0rc2`, `0.5.5.post3`. */
export const ENGINE_VERSION_PATTERN = "^v?[0-9]+\\.[0-9]+(\\.[0-9]+)?([.+-]?[0-9A-Za-z.+-]*)?$";

export const EngineVersionText = Type.String({
  minLength: 3,
  maxLength: 64,
  pattern: ENGINE_VERSION_PATTERN,
  description: "The GPU engine's version where it runs, when you know better than svc (which reads it from the image or the cluster's Python): its arguments are checked against that version's options.",
});

/** How svc knows the version a launch's engine arguments were checked for. */
export const ENGINE_VERSION_SOURCES = ["given", "found", "pinned", "unknown"] as const;

/** The version of a GPU launch's engine and the option list its arguments were checked against (RunResponse.engineVersion). */
export const EngineVersionCheck = Type.Object(
  {
    engine: literalUnion(GPU_ENGINES),
    version: Type.Union([Type.String(), Type.Null()], { description: "The engine's version where it runs; null when it could not be found (unchecked)." }),
    source: literalUnion(ENGINE_VERSION_SOURCES, { description: "given: --engine-version; found: read where it runs; pinned: svc's pinned image; unknown: not found (arguments unchecked)." }),
    checkedAgainst: Type.Union([Type.String(), Type.Null()], { description: "The release whose option list the arguments were checked against; null when unchecked." }),
    how: Type.Optional(Type.String({ description: "Where the version was read (the image's label, its package metadata, the cluster's python3)." })),
  },
  { $id: "EngineVersionCheck" },
);
export type EngineVersionCheck = Static<typeof EngineVersionCheck>;

/** A version svc found for a profile's engine (svc profile show): per engine and image (null: a bare job's Python). */
export const FoundEngineVersion = Type.Object(
  {
    engine: literalUnion(GPU_ENGINES),
    image: Type.Union([Type.String(), Type.Null()], { description: "The image it runs in; null for a bare Slurm job (the cluster's python3)." }),
    version: Type.Union([Type.String(), Type.Null()], { description: "null: not installed there, or not readable." }),
    how: Type.String(),
    foundAt: Type.String({ format: "date-time" }),
  },
  { $id: "FoundEngineVersion" },
);
export type FoundEngineVersion = Static<typeof FoundEngineVersion>;
