/**
 * `svc start` runs its components from the bundle `npm install` builds (supervisor/build-bundle.ts)
 * only while it is current. The real build, into a scratch folder so the checkout's own bundle is
 * never touched; the rules on a scratch tree; and the supervisor running what componentEntries names.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT, startSvc } from "@svc/testing";
import { bundleComponents } from "../build-bundle";
import { bundleEntries, COMPONENT_NAMES, componentEntries, type BundleOrigin } from "../src/components";

const scratch = mkdtempSync(join(tmpdir(), "svc-component-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the build bundles the four components, each source's own place (migrations, assets, the worker) written in", async () => {
  const out = join(scratch, "built");
  expect(await bundleComponents(REPO_ROOT, out)).toMatchObject({ sources: expect.any(Number) });
  const origin = JSON.parse(readFileSync(join(out, "origin.json"), "utf8")) as BundleOrigin;
  expect(Object.keys(origin.entries).sort()).toEqual([...COMPONENT_NAMES].sort());
  expect(origin.root).toBe(resolve(REPO_ROOT));
  for (const source of ["gateway/src/main.ts", "orchestrator-svc/src/db/workload-store.ts", "model-svc/src/db/connection.ts", "ui/src/assets.ts", "platform/src", "gateway/package.json"]) expect(origin.sources).toContain(source);
  expect(origin.sources.some((source) => source.startsWith("node_modules/"))).toBe(false);

  const code = readdirSync(out, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(join(out, file), "utf8"))
    .join("\n");
  expect(code).not.toMatch(/\bimport\.meta\.(dir|dirname|path|filename|url)\b/);
  expect(code).toContain(JSON.stringify(join(REPO_ROOT, "orchestrator-svc", "src", "db")));
  expect(code).toContain(JSON.stringify(pathToFileURL(join(REPO_ROOT, "gateway", "src", "db", "wal-checkpoints.ts")).href));

  const entries = bundleEntries(REPO_ROOT, out)!;
  for (const name of COMPONENT_NAMES) expect(entries[name]).toBe(join(out, origin.entries[name]!));
});

test("a bundle is used only while current: an edited, added or removed source, another checkout's bundle or a missing entry make `svc start` run the sources", () => {
  const root = join(scratch, "checkout");
  const bundle = join(root, "supervisor", ".bundle");
  mkdirSync(join(root, "pkg", "src"), { recursive: true });
  mkdirSync(bundle, { recursive: true });
  writeFileSync(join(root, "pkg", "src", "a.ts"), "export {};\n");
  const past = new Date(Date.now() - 3_600_000);
  const future = new Date(Date.now() + 60_000);
  const sources = ["pkg/src", "pkg/src/a.ts"];
  const dated = () => sources.forEach((path) => utimesSync(join(root, path), past, past));
  const entries = Object.fromEntries(COMPONENT_NAMES.map((name) => [name, `${name}/src/main.js`]));
  const write = (origin: Partial<BundleOrigin> = {}) => writeFileSync(join(bundle, "origin.json"), JSON.stringify({ root, built: Date.now() - 60_000, sources, entries, ...origin }));

  expect(bundleEntries(root)).toBeUndefined();
  dated();
  write();
  expect(bundleEntries(root)?.gateway).toBe(join(bundle, "gateway/src/main.js"));

  utimesSync(join(root, "pkg", "src", "a.ts"), future, future);
  expect(bundleEntries(root)).toBeUndefined();
  dated();
  writeFileSync(join(root, "pkg", "src", "b.ts"), "export {};\n");
  utimesSync(join(root, "pkg", "src"), future, future); // a file copied in keeps its old time; its folder changed
  expect(bundleEntries(root)).toBeUndefined();
  dated();
  unlinkSync(join(root, "pkg", "src", "a.ts"));
  expect(bundleEntries(root)).toBeUndefined();
  writeFileSync(join(root, "pkg", "src", "a.ts"), "export {};\n");
  dated();
  expect(bundleEntries(root)).toBeDefined();

  write({ root: "/somewhere/else" });
  expect(bundleEntries(root)).toBeUndefined();
  const { gateway: _, ...withoutGateway } = entries;
  write({ entries: withoutGateway });
  expect(bundleEntries(root)).toBeUndefined();
  writeFileSync(join(bundle, "origin.json"), "{ not json");
  expect(bundleEntries(root)).toBeUndefined();
});

test("svc start runs each component from what componentEntries names", async () => {
  const app = await startSvc();
  try {
    const entries = componentEntries();
    for (const [name, { pid }] of Object.entries(app.lock().components)) {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      expect({ name, entry: argv[1] }).toEqual({ name, entry: entries[name as keyof typeof entries] });
    }
  } finally {
    await app.cleanup();
  }
});
