import type { CAC } from "cac";
import type { RuntimeImage, Task } from "@svc/contracts";
import { toTask, TASKS } from "@svc/contracts";
import { defineGroup } from "../../group";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatTable } from "../../output/table";
import { formatBytes } from "@svc/contracts/format-bytes";
import { showingImageBuilds } from "./follow-builds";

/** An image not on this machine yet has no size: it is built on first use (or by `svc image build`). */
const size = (image: RuntimeImage) => (!image.present ? "not built" : image.sizeBytes === null ? "unknown" : formatBytes(image.sizeBytes));

function table(images: RuntimeImage[]): string {
  return formatTable(
    ["task", "engine", "image", "set by", "present", "size"],
    images.map((i) => [i.task, i.engine, i.image, i.setBy ?? "default", i.present ? "yes" : "no", size(i)]),
  );
}

function registerImageLs(cli: CAC, ctx: CliContext) {
  cli
    .command("ls", "List the runtime images and whether this machine has them")
    .option("--json", "Print JSON")
    .action(async (options: { json?: boolean }) => {
      const images = await ctx.client().images.list();
      ctx.emit(images, Boolean(options.json), () => table(images));
    });
}

function registerImageBuild(cli: CAC, ctx: CliContext) {
  cli
    .command("build [task]", "Build the project's runtime images (all, or the one for a task); unchanged ones are reused")
    .action(async (name?: string) => {
      const task = name === undefined ? undefined : toTask(String(name));
      if (name !== undefined && !task) throw new UsageError(`unknown task '${name}': choose ${TASKS.join(" or ")}.`);
      ctx.io.err(`Building ${task ?? "all"} runtime image${task ? "" : "s"} (the first build takes a minute)…`);
      const client = ctx.client();
      const images = await showingImageBuilds(client, ctx.io.err, client.images.build(task));
      ctx.io.out(table(images));
    });
}

/** `svc image ls|build`. */
export const imageGroup = defineGroup<CliContext>({
  name: "image",
  description: "Runtime images: ls, build",
  commands: [registerImageLs, registerImageBuild],
});
