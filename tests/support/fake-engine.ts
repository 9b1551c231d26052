// The engine interface alone: the package's index loads all of orchestrator-svc (~240 ms of every test file).
import { instanceKey, type Engine, type EngineCapabilities, type LaunchSpec, type Observation, type Submitted } from "@svc/orchestrator-svc/engine";

/**
 * An Engine for unit tests of what drives engines (the reconciler, the services feature): it runs
 * nothing, and each handle reports the observations a test scripts for it, one per inspect (the
 * last one repeats). Calls are recorded; failures and slow answers can be scripted too.
 */
export class FakeEngine implements Engine {
  readonly capabilities: EngineCapabilities = { followsLogs: false, tunnels: false, watches: false, dataPaths: "this-machine", slurmJobOptions: false, runsImages: true };
  readonly submitted: LaunchSpec[] = [];
  readonly stopped: string[] = [];
  readonly released: string[] = [];
  inspectCalls = 0;
  /** Handles `adopt` finds, by service id or instance key (a submit that reached the engine but was never recorded). */
  readonly known = new Map<string, string>();
  private readonly scripts = new Map<string, Observation[]>();
  private failure: Error | undefined;
  private gate: Promise<void> | undefined;
  private next = 0;

  constructor(readonly kind: Engine["kind"] = "docker") {}

  /** What `handle` reports on the next inspects, in order; the last one repeats. */
  script(handle: string, ...observations: Observation[]): this {
    this.scripts.set(handle, observations);
    return this;
  }

  /** Every call fails with `error` until `recover()`. */
  fail(error: Error): this {
    this.failure = error;
    return this;
  }

  recover(): this {
    this.failure = undefined;
    return this;
  }

  /** The next inspects wait until the returned function is called (to act while a read is under way). */
  hold(): () => void {
    let open!: () => void;
    this.gate = new Promise<void>((resolve) => (open = resolve));
    return () => {
      this.gate = undefined;
      open();
    };
  }

  private check() {
    if (this.failure) throw this.failure;
  }

  async render(spec: LaunchSpec): Promise<string> {
    this.check();
    return `fake ${spec.image} ${spec.args.join(" ")}`.trim();
  }

  async submit(spec: LaunchSpec): Promise<Submitted> {
    this.check();
    this.submitted.push(spec);
    const handle = `fake-${++this.next}`;
    this.known.set(instanceKey(spec.serviceId, spec.generation), handle);
    return { handle, host: null, port: null, notes: [] };
  }

  async inspect(handles: string[]): Promise<Map<string, Observation>> {
    this.inspectCalls++;
    await this.gate;
    this.check();
    const observations = new Map<string, Observation>();
    for (const handle of handles) {
      const script = this.scripts.get(handle);
      observations.set(handle, (script && script.length > 1 ? script.shift() : script?.[0]) ?? { phase: "missing" });
    }
    return observations;
  }

  async stop(handle: string): Promise<void> {
    this.check();
    this.stopped.push(handle);
    this.script(handle, { phase: "exited", outcome: "cancelled", reason: "stopped" });
  }

  async logs(): Promise<ReadableStream<Uint8Array>> {
    this.check();
    return new Response("").body!;
  }

  async release(handle: string): Promise<void> {
    this.released.push(handle);
  }

  async adopt(serviceIds: string[]): Promise<Map<string, string>> {
    this.check();
    return new Map(serviceIds.filter((id) => this.known.has(id)).map((id) => [id, this.known.get(id)!]));
  }
}
