import type { SvcClient } from "./client";
import type { OperationAnswer, OperationKey, Operations } from "./operations";

/** The two kinds of workload the API runs on an engine, by the path of their collection. */
export type WorkloadPath = "/api/services" | "/api/batches";

/**
 * The calls services and batch jobs share: start one (or, with dryRun, only render its start-up
 * script), get one with its details, stop it, delete its record (`force` stops a live one first).
 */
export class WorkloadsApi<P extends WorkloadPath> {
  constructor(
    protected readonly client: Pick<SvcClient, "call">,
    private readonly path: P,
  ) {}

  run(request: Operations[`POST ${P}`]["body"]): Promise<OperationAnswer<`POST ${P}`>> {
    return this.send(`POST ${this.path}`, { body: request });
  }

  get(ref: string): Promise<OperationAnswer<`GET ${P}/{ref}`>> {
    return this.send(`GET ${this.path}/{ref}`, { params: { ref } });
  }

  stop(ref: string): Promise<OperationAnswer<`POST ${P}/{ref}/stop`>> {
    return this.send(`POST ${this.path}/{ref}/stop`, { params: { ref } });
  }

  remove(ref: string, options: { force?: boolean } = {}): Promise<OperationAnswer<`DELETE ${P}/{ref}`>> {
    return this.send(`DELETE ${this.path}/{ref}`, { params: { ref }, query: { force: options.force || undefined } });
  }

  /** `call` for an operation of this kind; the public methods above give each its types. */
  private send<T>(operation: string, input: object): Promise<T> {
    return (this.client.call as (operation: OperationKey, input: object) => Promise<T>)(operation as OperationKey, input);
  }
}
