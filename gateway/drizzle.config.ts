import { defineConfig } from "drizzle-kit";

/** `npx drizzle-kit generate --config gateway/drizzle.config.ts` after changing src/db/schema.ts. */
export default defineConfig({
  dialect: "sqlite",
  schema: "./gateway/src/db/schema.ts",
  out: "./gateway/drizzle",
});
