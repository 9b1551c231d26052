import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SERVICES, type ServiceName } from "@svc/contracts/topology";
import { changedSince } from "@svc/platform/bundle-sources";

export type ComponentName = ServiceName | "gateway";

/** The processes `svc start` runs: the three services, then the gateway in front of them. */
export const COMPONENT_NAMES: ComponentName[] = [...SERVICES.map(({ name }) => name), "gateway"];

/** What supervisor/build-bundle.ts built the bundle from (`root`, the checkout; `sources` relative to it), and each component's file in it. */
export interface BundleOrigin {
  root: string;
  built: number;
  sources: string[];
  entries: Partial<Record<ComponentName, string>>;
}

const CHECKOUT = join(import.meta.dir, "..", "..");

/**
 * Each component's file in the bundle at `bundleDir` (supervisor/.bundle, built by `npm install`)
 * while that bundle is current: built in the checkout at `root`, and no source it holds changed since.
 */
export function bundleEntries(root: string, bundleDir = join(root, "supervisor", ".bundle")): Record<ComponentName, string> | undefined {
  let origin: BundleOrigin;
  try {
    origin = JSON.parse(readFileSync(join(bundleDir, "origin.json"), "utf8")) as BundleOrigin;
  } catch {
    return undefined;
  }
  if (origin.root !== resolve(root) || !COMPONENT_NAMES.every((name) => origin.entries[name]) || changedSince(root, origin.sources, origin.built)) return undefined;
  return Object.fromEntries(COMPONENT_NAMES.map((name) => [name, join(bundleDir, origin.entries[name]!)])) as Record<ComponentName, string>;
}

/** Each component's entry: the current bundle's (bundleEntries), else its main.ts. */
export function componentEntries(root = CHECKOUT): Record<ComponentName, string> {
  return bundleEntries(root) ?? (Object.fromEntries(COMPONENT_NAMES.map((name) => [name, Bun.resolveSync(`@svc/${name}/main`, root)])) as Record<ComponentName, string>);
}

/**
 * Requests the gateway's fetch keeps open at once. Bun's default, 256, would queue every stream past
 * the 256th behind those open (the gateway relays each with one fetch); Bun reads the limit from
 * BUN_CONFIG_MAX_HTTP_REQUESTS when the process starts. A value in svc's own environment wins.
 */
export const GATEWAY_OPEN_REQUESTS = "16384";
