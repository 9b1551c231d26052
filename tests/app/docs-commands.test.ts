/**
 * The documentation's command blocks that are marked to run (a `<!-- runs: tests/app/docs-commands.test.ts -->`
 * comment right before a `sh` block, in README.md or docs/*.md), each run as written with `bash -e`
 * against a started application: SVC_HOME_DIR, SVC_HOST and SVC_PORT set to it, `svc` on the PATH,
 * and the default profile made by `svc init --yes`, as after the README's first steps. Blocks that
 * need a cluster, a GPU, a model download or minutes of work are not marked.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, runDocBlock, startSvc, svcOnPath, type RunningSvc } from "@svc/testing";

const MARKER = "<!-- runs: tests/app/docs-commands.test.ts -->";

interface Block {
  file: string;
  /** Its place among the file's marked blocks, from 1. */
  nth: number;
  script: string;
}

/** Every marked block; a marker not followed by a `sh` block is an error, so none is skipped unseen. */
function markedBlocks(): Block[] {
  const files = ["README.md", ...readdirSync(join(REPO_ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
  return files.flatMap((file) => {
    const parts = readFileSync(join(REPO_ROOT, file), "utf8").split(MARKER).slice(1);
    return parts.map((after, i) => {
      const block = /^\s*```sh\n([\s\S]*?)```/.exec(after);
      if (!block) throw new Error(`${file}: the ${i + 1}. "runs" marker is not followed by a sh block`);
      return { file, nth: i + 1, script: block[1] };
    });
  });
}

const blocks = markedBlocks();
let app: RunningSvc;
let bin: string;

const bash = (script: string) => runDocBlock(script, app, bin);

beforeAll(async () => {
  app = await startSvc();
  bin = svcOnPath();
  const init = await bash("svc init --yes");
  if (init.code !== 0) throw new Error(`svc init --yes failed: ${init.stderr}`);
}, 120_000);

afterAll(() => app?.cleanup());

test("the docs mark blocks to run on several pages", () => {
  expect(new Set(blocks.map((b) => b.file)).size).toBeGreaterThanOrEqual(5);
});

for (const block of blocks) {
  test(`${block.file}, marked block ${block.nth}, runs as written`, async () => {
    const { stdout, stderr, code } = await bash(block.script);
    expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout.length).toBeGreaterThan(0);
  }, 60_000);
}
