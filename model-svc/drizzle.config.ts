import { defineConfig } from "drizzle-kit";

/** `npx drizzle-kit generate --config model-svc/drizzle.config.ts` after changing src/db/schema.ts. */
export default defineConfig({
  dialect: "sqlite",
  schema: "./model-svc/src/db/schema.ts",
  out: "./model-svc/drizzle",
});
