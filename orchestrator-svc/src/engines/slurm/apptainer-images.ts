import type { SlurmProfile } from "@svc/contracts";
import { connectionKey, remotePathWord, shCommand, shellQuote, type ClusterConnection } from "@svc/ssh";
import { EngineError } from "../engine-error";
import { clusterFailure } from "./cluster-failure";
import { inside } from "./cluster-paths";

/** The container images of this machine's Docker, as far as the Apptainer runtime needs them. */
export interface LocalImages {
  /** The image's id here, or undefined when Docker does not have it (or does not answer). */
  localId(image: string): Promise<string | undefined>;
  /** Whether svc builds this image itself (`svc image build`). */
  buildable(image: string): boolean;
  /** `docker save` of the image: one tar stream. */
  save(image: string): Promise<ReadableStream<Uint8Array>>;
}

type Source = { kind: "file" } | { kind: "pull"; ref: string } | { kind: "archive"; image: string };

/** Where a job's SIF image is, and the commands that make it when it is missing (run on the login node, shown by --dry-run). */
export interface ImagePlan {
  sif: string;
  found: boolean;
  /** Exactly what svc runs before submitting when the image is missing (the archive's upload first, for a local image). */
  prepare: string[];
  source: Source;
}

/** Apptainer's own URI schemes: the reference is pulled as it is. */
const URI = /^(docker|oras|library|shub|https?):\/\//;
const PULL_TIMEOUT_MS = 3 * 60 * 60 * 1000;

/** `vllm/vllm-openai:latest` → `vllm-openai.sif`; `repo/x:v1` → `x_v1.sif`; a digest keeps 12 of its digits. */
export function sifName(ref: string): string {
  const last = ref.replace(URI, "").split("/").pop()!;
  const [name, tag] = last.includes("@") ? [last.split("@")[0], last.split("@")[1].replace(/^sha256:/, "").slice(0, 12)] : last.split(":");
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, "_");
  return `${safe(name)}${tag && tag !== "latest" ? `_${safe(tag)}` : ""}.sif`;
}

/**
 * The SIF image of an Apptainer job. `docker://…` (and Apptainer's other URIs), or any image this
 * machine's Docker does not have, is pulled once on the cluster into <home>/images/<name>.sif; an
 * image Docker has here (such as svc's own, built without a registry) is sent as a `docker save`
 * archive over the profile's connection and built there (`apptainer build … docker-archive://…`),
 * named by its image id so a rebuilt image is sent again. A SIF already in <cache>/images/ or
 * <home>/images/ is used as it is; an image given as a path to a .sif file is used directly.
 */
export class ApptainerImages {
  private readonly preparing = new Map<string, Promise<void>>();

  constructor(private readonly local: LocalImages | undefined) {}

  private async source(image: string): Promise<{ source: Source; name: string }> {
    if (URI.test(image)) return { source: { kind: "pull", ref: image }, name: sifName(image) };
    const id = await this.local?.localId(image);
    if (id) return { source: { kind: "archive", image }, name: sifName(`${image.replace(/:[^/:]*$/, "")}:${id.replace(/^sha256:/, "").slice(0, 12)}`) };
    if (this.local?.buildable(image)) {
      throw new EngineError("invalid", "image_missing", `The image ${image} is not on this machine: build it with 'svc image build' first; svc then sends it to the cluster and builds the Apptainer image there.`);
    }
    return { source: { kind: "pull", ref: `docker://${image}` }, name: sifName(image) };
  }

  async plan(image: string, profile: SlurmProfile, connection: ClusterConnection): Promise<ImagePlan> {
    if (/\.sif$/.test(image) && (image.startsWith("/") || image.startsWith("~/"))) return { sif: image, found: true, prepare: [], source: { kind: "file" } };
    const { source, name } = await this.source(image);
    const candidates = [inside(profile.cache, "images", name), inside(profile.home, "images", name)];
    const look = candidates.map((path, i) => `[ -f ${remotePathWord(path)} ] && { echo @${i}; exit 0; }`).join("\n");
    const result = await connection.run(`${look}\nexit 0\n`).catch((error) => {
      throw clusterFailure(error, `Could not look for ${name} on ${profile.host}`);
    });
    const at = result.stdout.match(/^@(\d)$/m);
    if (at) return { sif: candidates[Number(at[1])], found: true, prepare: [], source };
    return { sif: candidates[1], found: false, prepare: prepareCommands(source, candidates[1]), source };
  }

  /** Runs the plan's commands once per image and cluster account (a second run waits for the first). */
  async prepare(plan: ImagePlan, profile: SlurmProfile, connection: ClusterConnection): Promise<string[]> {
    if (plan.found) return [];
    const key = `${connectionKey(profile)}|${plan.sif}`;
    let running = this.preparing.get(key);
    if (!running) {
      running = this.make(plan, profile, connection).finally(() => this.preparing.delete(key));
      this.preparing.set(key, running);
    }
    await running;
    return [`The Apptainer image ${plan.sif} was missing on ${profile.host}, so svc ${plan.source.kind === "archive" ? "sent the local image and built it there" : "pulled it there"}.`];
  }

  private async make(plan: ImagePlan, profile: SlurmProfile, connection: ClusterConnection): Promise<void> {
    const steps = [...plan.prepare];
    try {
      if (plan.source.kind === "archive") {
        const archive = await this.local!.save(plan.source.image);
        const sent = await connection.send(shCommand(steps.shift()!), archive, { timeoutMs: PULL_TIMEOUT_MS });
        if (sent.code !== 0) throw new EngineError("failed", "image_prepare_failed", `Sending ${plan.source.image} to ${profile.host} failed: ${sent.stderr.trim() || `exit code ${sent.code}`}`);
      }
      for (const step of steps) {
        const result = await connection.run(step, { timeoutMs: PULL_TIMEOUT_MS, maxBytes: 1024 * 1024 });
        if (result.code !== 0) {
          const said = (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-5).join("\n");
          throw new EngineError("failed", "image_prepare_failed", `Making the Apptainer image ${plan.sif} on ${profile.host} failed (${step}): ${said}`);
        }
      }
    } catch (error) {
      throw clusterFailure(error, `Could not make the Apptainer image on ${profile.host}`, "image_prepare_failed");
    }
  }
}

/** The commands that put the image at `sif` (written to a temporary name, renamed once complete). */
function prepareCommands(source: Source, sif: string): string[] {
  const dir = remotePathWord(sif.slice(0, sif.lastIndexOf("/")));
  const final = remotePathWord(sif);
  const part = `${remotePathWord(`${sif}.`)}$$.part`;
  if (source.kind === "pull") {
    return [`umask 077 && mkdir -p ${dir} && apptainer pull ${part} ${shellQuote(source.ref)} && mv -f ${part} ${final}`];
  }
  const archive = remotePathWord(`${sif}.docker.tar`);
  return [
    `umask 077 && mkdir -p ${dir} && cat > ${archive}.$$.part && mv -f ${archive}.$$.part ${archive}`,
    `umask 077 && apptainer build ${part} docker-archive://${archive} && mv -f ${part} ${final} && rm -f ${archive}`,
  ];
}
