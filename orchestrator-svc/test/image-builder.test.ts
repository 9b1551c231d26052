import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EngineError } from "../src/engines/engine-error";
import { ImageBuilder } from "../src/engines/docker/image-builder";

const dir = mkdtempSync(join(tmpdir(), "svc-image-builder-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for images/build.ts: progress on stderr (a line at a time), the tag on stdout. */
function script(name: string, body: string): () => string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return () => path;
}

describe("image builds and their progress", () => {
  test("a build's output is kept line by line; a second request for the same image joins it", async () => {
    const builder = new ImageBuilder(
      script(
        "build.ts",
        `const [task, flag, image] = process.argv.slice(2);
         console.error("Building FROM base (why)");
         for (let i = 1; i <= 3; i++) { console.error(\`Step \${i}/3 : \${task} \${flag}\`); await Bun.sleep(30); }
         process.stderr.write("progress 50%\\rprogress 100%\\n");
         console.log(image.replace(":latest", ":c0ffee"));`,
      ),
    );
    const [first, second] = await Promise.all([builder.build("text-generation", "svc-x:latest"), builder.build("text-generation", "svc-x:latest")]);
    expect([first, second]).toEqual(["svc-x:c0ffee", "svc-x:c0ffee"]);
    const builds = builder.list();
    expect(builds).toHaveLength(1);
    expect(builds[0]).toMatchObject({ task: "text-generation", image: "svc-x:latest", state: "completed", droppedLines: 0 });
    expect(builds[0].lines).toEqual([
      "Building FROM base (why)",
      "Step 1/3 : text-generation --image",
      "Step 2/3 : text-generation --image",
      "Step 3/3 : text-generation --image",
      "progress 50%",
      "progress 100%",
    ]);
  });

  test("a failed build: state failed, and the error quotes its last lines", async () => {
    const builder = new ImageBuilder(script("fail.ts", `console.error("Step 1/2 : FROM x"); console.error("pull access denied"); process.exit(1);`));
    let error: unknown;
    await builder.build("speech-recognition", "svc-y:latest").catch((e) => (error = e));
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe("image_build_failed");
    expect((error as EngineError).message).toContain("pull access denied");
    expect(builder.list()[0]).toMatchObject({ state: "failed", error: "images/build.ts exited with 1" });
  });

  test("where images/build.ts is not installed (the compose deployment), the error says how to build the image", async () => {
    // What Bun.resolveSync does when @svc/images is not installed.
    const builder = new ImageBuilder(() => {
      throw new Error("Cannot find package '@svc/images'");
    });
    let error: unknown;
    await builder.build("text-generation", "svc-text-generation:latest").catch((e) => (error = e));
    expect((error as EngineError).code).toBe("image_build_unavailable");
    expect((error as EngineError).message).toContain("The runtime image svc-text-generation:latest is missing");
    expect((error as EngineError).message).toContain("npm run images:build");
    expect(builder.list()).toEqual([]);
  });
});
