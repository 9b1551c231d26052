import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { TASKS, type AdapterFacts, type ModelFacts } from "@svc/contracts";

/** The model registry: one row per snapshot (repo, revision) available to a profile. */
export const models = sqliteTable(
  "models",
  {
    repo: text("repo").notNull(),
    revision: text("revision").notNull(),
    profile: text("profile").notNull(),
    image: text("image", { enum: TASKS }).notNull(),
    modelDir: text("model_dir").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** Some files of the repo at this revision are not in the snapshot (downloaded with --include/--exclude). */
    partial: integer("partial", { mode: "boolean" }).notNull().default(false),
    seenAt: text("seen_at").notNull(),
    /** What the model's files say (config.json, weight headers); null when they say nothing. */
    facts: text("facts", { mode: "json" }).$type<ModelFacts>(),
    /** Set when the snapshot is a LoRA adapter: what its files say (read with `facts`, under the same key). */
    adapter: text("adapter", { mode: "json" }).$type<AdapterFacts>(),
    /** The files `facts` were read from (names, sizes, times, condensed): a scan reads them again only when this changes. */
    factsKey: text("facts_key"),
  },
  (table) => [primaryKey({ columns: [table.repo, table.revision, table.profile] })],
);

export type ModelRow = typeof models.$inferSelect;
