import type { ModelFacts } from "@svc/contracts";
import { snapshotFacts } from "../discovery/scan-local";
import { readModelFacts } from "./read";

/**
 * The facts of a snapshot folder on this machine, read as a refresh reads them (config.json, the
 * safetensors headers and index, or the GGUF metadata), with what could not be read. For tools and
 * other packages' tests that size real models from their files (orchestrator-svc's sizing tests).
 */
export async function readFolderFacts(dir: string): Promise<{ facts?: ModelFacts; problems: string[] }> {
  const { facts: source, problem } = snapshotFacts(dir);
  const reading = await readModelFacts(source);
  return { facts: reading.facts, problems: problem ? [problem, ...reading.problems] : reading.problems };
}
