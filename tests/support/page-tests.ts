import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeCachedSnapshot, type CacheFile } from "./hf-cache";

/**
 * What the UI's page tests (gateway/test/*-pages.test.ts) start from: svc's home at `base`/svc with one
 * local profile, `default`, whose home and cache are `base`/home and `base`/cache, and `models` in that
 * cache. Returns svc's home.
 */
export function localProfileHome(base: string, models: Array<{ repo: string; commit: string; files: CacheFile[] }>): string {
  const svcHome = join(base, "svc");
  for (const dir of [svcHome, join(base, "home"), join(base, "cache")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(svcHome, "profiles.cfg"), `[default]\nschema = local\nhome_dir = ${join(base, "home")}\ncache_dir = ${join(base, "cache")}\n`);
  for (const model of models) writeCachedSnapshot(join(base, "cache", "models"), model.repo, model.commit, model.files);
  return svcHome;
}

/** A form post as a page sends it without JavaScript, from the app at `origin`; redirects are not followed. */
export const formPost = (origin: string, fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin, ...headers },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});
