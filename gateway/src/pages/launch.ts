import { Elysia, t } from "elysia";
import { readReplicaRange, toTask, type Model, type RunRequest } from "@svc/contracts";
import { ApiError, type SvcClient } from "@svc/client";
import { launchPage, type LaunchError, type LaunchFormValues, type LaunchPreview } from "@svc/ui";

const htmlHeaders = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };

const text = (maxLength: number) => t.Optional(t.String({ maxLength }));
const LaunchForm = t.Object(
  {
    action: text(16),
    task: text(64),
    model: text(256),
    revision: text(64),
    profile: text(256),
    name: text(256),
    apiKey: text(4096),
    time: text(32),
    ntasksPerNode: text(16),
    mem: text(16),
    gres: text(16),
    nodes: text(16),
    partition: text(128),
    constraint: text(256),
    account: text(128),
    qos: text(128),
    reservation: text(128),
    exclude: text(1024),
    nodelist: text(1024),
    mounts: text(65536),
    gracePeriod: text(16),
    image: text(512),
    maxInputLength: text(16),
    maxTotalTokens: text(16),
    sharded: text(16),
    engine: text(16),
    disableCustomKernels: text(8),
    engineArgs: text(65536),
    adapters: text(16384),
    inputDir: text(4096),
    idleStop: text(32),
    onDemand: text(8),
    startTimeout: text(32),
    renew: text(8),
    renewBefore: text(32),
    replicas: text(16),
    targetInflight: text(16),
    scaleUpAfter: text(32),
    scaleDownAfter: text(32),
    routing: text(16),
  },
  { additionalProperties: true },
);

type IntegerField = "ntasksPerNode" | "mem" | "gres" | "nodes" | "maxInputLength" | "maxTotalTokens" | "gracePeriod" | "targetInflight";
const LABELS: Record<IntegerField, string> = {
  targetInflight: "Target in flight per replica",
  gracePeriod: "Grace period",
  ntasksPerNode: "Tasks per node",
  mem: "Memory",
  gres: "GPUs per node",
  nodes: "Nodes",
  maxInputLength: "Max input length",
  maxTotalTokens: "Max total tokens",
};

/** Which form field an API message is about: its CLI option (`--time "x": …`), its JSON path, or its code. */
const OPTION_FIELDS: Array<[RegExp, keyof LaunchFormValues]> = [
  [/^--name\b|^name:/, "name"],
  [/^--time\b|^job\.time:/, "time"],
  [/^--partition\b|^job\.partition:/, "partition"],
  [/^--constraint\b|^job\.constraint:/, "constraint"],
  [/^--account\b|^job\.account:/, "account"],
  [/^--qos\b|^job\.qos:/, "qos"],
  [/^--reservation\b|^job\.reservation:/, "reservation"],
  [/^--exclude\b|^job\.exclude:/, "exclude"],
  [/^--nodelist\b|^job\.nodelist:/, "nodelist"],
  [/^--mount\b|^mounts/, "mounts"],
  [/^--grace-period\b|^gracePeriod:/, "gracePeriod"],
  [/^--image\b|^image:/, "image"],
  [/^--api-key\b|^apiKey:/, "apiKey"],
  [/^--sharded\b|^textGeneration\.sharded:/, "sharded"],
  [/^--max-input-length\b|^textGeneration\.maxInputLength:/, "maxInputLength"],
  [/^--max-total-tokens\b|^textGeneration\.maxTotalTokens:/, "maxTotalTokens"],
  [/^--input-dir\b|^speechRecognition\.inputDir:/, "inputDir"],
  [/^engine argument|^unknown options for speech|^engineArgs/i, "engineArgs"],
  [/^--idle-stop\b|^policies\.idleStop:|^the profile's idle_stop/, "idleStop"],
  [/^--start-timeout\b|^policies\.startTimeout:/, "startTimeout"],
  [/^--renew-before\b|^policies\.renewBefore:/, "renewBefore"],
  [/^--renew\b/, "renew"],
  [/^--mem\b|^job\.mem:/, "mem"],
  [/^--gres\b|^job\.gres:/, "gres"],
  [/^--nodes\b|^job\.nodes:/, "nodes"],
  [/^--engine\b|^engine:/, "engine"],
  [/^--ntasks-per-node\b|^job\.ntasksPerNode:/, "ntasksPerNode"],
  [/^The model\b|^model:| is a (text-generation|speech-recognition) model, not /, "model"],
  [/^--revision\b|^revision:/, "revision"],
  [/^--replicas\b|^scaling\.replicas:|^replicas\b/, "replicas"],
  [/^--target-inflight\b|^scaling\.targetInflight:/, "targetInflight"],
  [/^--scale-up-after\b|^scaling\.scaleUpAfter:/, "scaleUpAfter"],
  [/^--scale-down-after\b|^scaling\.scaleDownAfter:/, "scaleDownAfter"],
  [/^--routing\b|^scaling\.routing:/, "routing"],
];

export function launchError(error: ApiError): LaunchError {
  const field = (error.details as { field?: unknown } | undefined)?.field;
  if (typeof field === "string") return { message: error.message, field: field as keyof LaunchFormValues };
  for (const [pattern, name] of OPTION_FIELDS) if (pattern.test(error.message)) return { message: error.message, field: name };
  if (error.code === "model_not_found" || error.code === "model_is_adapter") return { message: error.message, field: "model" };
  if (error.code === "revision_not_found") return { message: error.message, field: "revision" };
  if (error.code === "no_profiles" || /^No profile named /.test(error.message)) return { message: error.message, field: "profile" };
  return { message: error.message };
}

/** The form's text → a RunRequest; blank fields are left out, so the API's defaults apply. */
export function runRequest(values: LaunchFormValues): { request?: RunRequest; error?: LaunchError } {
  const task = toTask(values.task) ?? "text-generation";
  const integers: Partial<Record<IntegerField, number>> = {};
  for (const key of Object.keys(LABELS) as IntegerField[]) {
    const raw = values[key]?.trim();
    if (!raw) continue;
    if (!/^\d+$/.test(raw)) return { error: { field: key, message: `${LABELS[key]} "${raw}" is not a whole number: write digits only, or leave it empty.` } };
    integers[key] = Number(raw);
  }
  const clean = (key: keyof LaunchFormValues) => values[key]?.trim() || undefined;
  const mounts = (values.mounts ?? "").split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const job = Object.fromEntries(
    Object.entries({
      time: clean("time"),
      partition: clean("partition"),
      constraint: clean("constraint"),
      account: clean("account"),
      qos: clean("qos"),
      reservation: clean("reservation"),
      exclude: clean("exclude"),
      nodelist: clean("nodelist"),
      mem: integers.mem,
      gres: integers.gres,
      nodes: integers.nodes,
      ntasksPerNode: integers.ntasksPerNode,
    }).filter(([, v]) => v !== undefined),
  );
  const request: RunRequest = {
    task,
    model: values.model?.trim() ?? "",
    ...(clean("revision") ? { revision: clean("revision") } : {}),
    ...(clean("profile") ? { profile: clean("profile") } : {}),
    ...(clean("name") ? { name: clean("name") } : {}),
    ...(clean("apiKey") ? { apiKey: clean("apiKey") } : {}),
    ...(Object.keys(job).length ? { job } : {}),
    ...(mounts.length ? { mounts } : {}),
    ...(integers.gracePeriod !== undefined ? { gracePeriod: integers.gracePeriod } : {}),
    ...(clean("image") ? { image: clean("image") } : {}),
  };
  const policies = Object.fromEntries(
    Object.entries({
      idleStop: clean("idleStop"),
      onDemand: values.onDemand ? true : undefined,
      startTimeout: clean("startTimeout"),
      renew: values.renew ? true : undefined,
      renewBefore: clean("renewBefore"),
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(policies).length) request.policies = policies;
  const replicas = clean("replicas");
  if (replicas) {
    const range = readReplicaRange(replicas);
    if ("error" in range) return { error: { field: "replicas", message: `${range.error}.` } };
    const routing = clean("routing");
    if (routing !== undefined && routing !== "least-busy" && routing !== "prefix") return { error: { field: "routing", message: `Routing "${routing}": choose least-busy or prefix.` } };
    request.scaling = Object.fromEntries(
      Object.entries({ replicas, targetInflight: integers.targetInflight, scaleUpAfter: clean("scaleUpAfter"), scaleDownAfter: clean("scaleDownAfter"), routing }).filter(([, v]) => v !== undefined),
    ) as RunRequest["scaling"];
  }
  if (!request.model) return { error: { field: "model", message: "Choose a model. Only registered models can run: add or refresh them on the Models page." } };
  if (task === "text-generation") {
    const options = Object.fromEntries(
      Object.entries({
        maxInputLength: integers.maxInputLength,
        maxTotalTokens: integers.maxTotalTokens,
        sharded: clean("sharded"),
        disableCustomKernels: values.disableCustomKernels ? true : undefined,
      }).filter(([, v]) => v !== undefined),
    );
    if (Object.keys(options).length) request.textGeneration = options;
    const engine = clean("engine");
    if (engine === "vllm" || engine === "sglang") request.engine = engine;
    else if (engine) return { error: { field: "engine", message: `Engine "${engine}": choose vLLM or SGLang, or leave it unset.` } };
    const args = (values.engineArgs ?? "").split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
    if (args.length) request.engineArgs = args;
    const adapters = (values.adapters ?? "").split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
    if (adapters.length) request.adapters = adapters;
  } else if (clean("inputDir")) {
    request.speechRecognition = { inputDir: clean("inputDir") };
  }
  return { request };
}

/**
 * The launch form: task, model and revision from the registry, profile, job and container options.
 * "Preview" asks the API for a dry run and shows the start-up script; "Launch" starts the service
 * and goes to its page. The API's 4xx messages come back next to the field they are about.
 */
export function launchPages(client: SvcClient, session: boolean) {
  const page = (request: Request, body: string, status: number) =>
    new Response(body, { status: request.headers.get("hx-request") ? 200 : status, headers: htmlHeaders });

  async function render(request: Request, values: LaunchFormValues, extra: { error?: LaunchError; preview?: LaunchPreview; status?: number } = {}) {
    const [models, profiles] = await Promise.all([
      // The models a service can run: LoRA adapters are served on a base, not launched.
      client.models.list({ kind: "model" }).then(
        (list): { list: Model[]; error?: string } => ({ list }),
        (error) => ({
          list: [],
          error: error instanceof ApiError ? error.message : "model-svc is not answering (it may be restarting): reload in a few seconds.",
        }),
      ),
      client.profiles.list().then(
        (list) => list.map((p) => p.name),
        () => [] as string[],
      ),
    ]);
    // The API key is never written back into a page (the browser may keep it); it is asked again.
    const body = launchPage({ models: models.list, modelsError: models.error, profiles, values: { ...values, apiKey: undefined }, session, ...extra });
    return page(request, body, extra.status ?? 200);
  }

  return new Elysia({ name: "gateway/pages/launch" })
    .get(
      "/services/new",
      ({ request, query }) =>
        render(request, {
          task: toTask(query.task) ?? query.task,
          model: query.model,
          revision: query.revision,
          profile: query.profile,
        }),
      { query: t.Object({ task: text(64), model: text(256), revision: text(64), profile: text(256) }, { additionalProperties: true }), detail: { hide: true } },
    )
    .post(
      "/services/new",
      async ({ request, body }) => {
        const values = (body ?? {}) as LaunchFormValues & { action?: string };
        const dryRun = values.action === "preview";
        const { request: run, error } = runRequest(values);
        if (!run) return render(request, values, { error, status: 400 });
        try {
          const result = await client.services.run({ ...run, dryRun });
          if (!dryRun && result.deployment) return new Response(null, { status: 303, headers: { location: `/deployments/${result.deployment.id}?launched=1` } });
          if (dryRun || !result.service) {
            const placement = result.placement ? { placement: { summary: result.placement.summary, reasons: result.placement.reasons } } : {};
            return render(request, values, { preview: { script: result.script, revision: result.revision, matched: result.matched, warnings: result.warnings, ...placement } });
          }
          return new Response(null, { status: 303, headers: { location: `/services/${result.service.id}?launched=1` } });
        } catch (caught) {
          if (!(caught instanceof ApiError)) {
            return render(request, values, { error: { message: "orchestrator-svc is not answering (it may be restarting): try again in a few seconds." }, status: 503 });
          }
          return render(request, values, { error: launchError(caught), status: caught.status });
        }
      },
      { body: t.Optional(LaunchForm), detail: { hide: true } },
    );
}
