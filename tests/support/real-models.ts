/**
 * A model's snapshot as its real files are, without the weights: the checked-in config.json, and
 * safetensors shards of the true size whose headers list the real tensors, written as sparse files
 * (truncate: no gigabytes on disk), with model.safetensors.index.json. And the facts those files
 * give, read by model-svc's reader (the 8-byte length and the JSON header of each shard).
 */
import { closeSync, copyFileSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ModelFacts } from "@svc/contracts";
import { readFolderFacts } from "@svc/model-svc/facts";
import { checkpointTensors, tensorBytes, type TensorSpec } from "./real-model-tensors";

export const CONFIGS = join(import.meta.dir, "fixtures", "model-configs");
const SHARD_BYTES = 5e9;

/** Writes `name`'s snapshot into `dir`; returns the index's total_size. */
export function writeSnapshot(name: string, dir: string): number {
  mkdirSync(dir, { recursive: true });
  const config = JSON.parse(readFileSync(join(CONFIGS, name, "config.json"), "utf8"));
  copyFileSync(join(CONFIGS, name, "config.json"), join(dir, "config.json"));
  const shards: TensorSpec[][] = [[]];
  let size = 0;
  for (const tensor of checkpointTensors(config)) {
    if (size > 0 && size + tensorBytes(tensor) > SHARD_BYTES) {
      shards.push([]);
      size = 0;
    }
    shards[shards.length - 1].push(tensor);
    size += tensorBytes(tensor);
  }
  const weightMap: Record<string, string> = {};
  let total = 0;
  shards.forEach((tensors, i) => {
    const file = `model-${String(i + 1).padStart(5, "0")}-of-${String(shards.length).padStart(5, "0")}.safetensors`;
    const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
    let offset = 0;
    for (const tensor of tensors) {
      header[tensor.name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + tensorBytes(tensor)] };
      offset += tensorBytes(tensor);
      weightMap[tensor.name] = file;
    }
    const json = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(json.length));
    const fd = openSync(join(dir, file), "w");
    writeSync(fd, length);
    writeSync(fd, json);
    ftruncateSync(fd, 8 + json.length + offset);
    closeSync(fd);
    total += offset;
  });
  writeFileSync(join(dir, "model.safetensors.index.json"), JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap }, null, 2));
  return total;
}

/** The facts of the snapshot in `dir`, read by model-svc's own reader as a refresh reads them; a file it cannot read fails the test. */
export async function readFacts(dir: string): Promise<ModelFacts> {
  const { facts, problems } = await readFolderFacts(dir);
  if (problems.length > 0 || !facts) throw new Error(`${dir}: ${problems.join("; ") || "no facts"}`);
  return facts;
}
