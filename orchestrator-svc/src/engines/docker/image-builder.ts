import { randomUUID } from "node:crypto";
import type { ImageBuild, Task } from "@svc/contracts";
import { EngineError } from "../engine-error";

/** images/build.ts; looked up when a build is asked for (an application image without images/ still runs prebuilt images). */
const buildScript = () => Bun.resolveSync("@svc/images/build", import.meta.dir);
/** Lines kept per build, and builds kept for GET /api/images/builds. */
const KEEP_LINES = 2000;
const KEEP_BUILDS = 20;

/**
 * Builds the project's runtime images with images/build.ts, one build per image at a time (a
 * second request joins the running one), and keeps each build's output line by line, so that
 * `svc run` and `svc image build` can show its progress while they wait.
 */
export class ImageBuilder {
  private readonly builds: ImageBuild[] = [];
  private readonly running = new Map<string, Promise<string>>();

  /** `script`: the build command's path (default: @svc/images/build, resolved at each build). */
  constructor(private readonly script: () => string = buildScript) {}

  /** Recent builds, newest first. */
  list(): ImageBuild[] {
    return this.builds.map((build) => ({ ...build, lines: [...build.lines] })).reverse();
  }

  /** Builds `image` for `task` (joining a build of it already under way); resolves to the built tag. */
  build(task: Task, image: string): Promise<string> {
    const running = this.running.get(image);
    if (running) return running;
    const promise = this.run(task, image).finally(() => this.running.delete(image));
    this.running.set(image, promise);
    return promise;
  }

  private async run(task: Task, image: string): Promise<string> {
    let script: string;
    try {
      script = this.script();
    } catch {
      throw new EngineError(
        "failed",
        "image_build_unavailable",
        `The runtime image ${image} is missing, and this installation cannot build it (it has no images/ folder of svc, as in the compose deployment): ` +
          "build it on the Docker host from a clone of svc with `npm run images:build`, then try again.",
      );
    }
    const build: ImageBuild = { id: randomUUID(), task, image, state: "running", lines: [], droppedLines: 0, startedAt: new Date().toISOString() };
    this.builds.push(build);
    if (this.builds.length > KEEP_BUILDS) this.builds.shift();
    const add = (line: string) => {
      build.lines.push(line);
      if (build.lines.length > KEEP_LINES) {
        build.lines.shift();
        build.droppedLines++;
      }
    };
    const proc = Bun.spawn([process.execPath, script, task, "--image", image], { stdout: "pipe", stderr: "pipe" });
    const [out, , code] = await Promise.all([new Response(proc.stdout).text(), readLines(proc.stderr, add), proc.exited]);
    build.finishedAt = new Date().toISOString();
    if (code !== 0) {
      build.state = "failed";
      build.error = `images/build.ts exited with ${code}`;
      throw new EngineError("failed", "image_build_failed", `Building the ${task} runtime image failed:\n${build.lines.slice(-10).join("\n")}`);
    }
    build.state = "completed";
    return out.trim().split("\n").pop() ?? "";
  }
}

/** Calls `line` for each line of a byte stream (a carriage return also ends one: progress redraws). */
async function readLines(stream: ReadableStream<Uint8Array>, line: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    const parts = pending.split(/\r?\n|\r/);
    pending = parts.pop() ?? "";
    for (const part of parts) if (part.trim() !== "") line(part);
  }
  if (pending.trim() !== "") line(pending);
}
