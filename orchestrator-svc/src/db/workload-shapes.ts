/** What the workload stores (services, batch jobs) read and write, whatever their table. */

/** What every workload row (a service, a batch job) has, whatever its table. */
export interface WorkloadRow<Status extends string = string> {
  id: string;
  name: string;
  status: Status;
  reason: string | null;
  handle: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One state change, as the API shows it. */
export interface WorkloadEvent<Status extends string = string> {
  at: string;
  from: Status | null;
  to: Status;
  reason: string | null;
}

export interface ListFilter<Status extends string = string> {
  status?: Status;
  idPrefix?: string;
  /** Include the ended ones (stopped, failed, ...). */
  all?: boolean;
  /** Without `all` or `status`: also those that ended (last changed) at or after this time. */
  endedSince?: Date;
}

/** Where a page of the list ends: the last row's place in the order (live first, then newest first). */
export interface ListPosition {
  ended: 0 | 1;
  createdAt: string;
  id: string;
}
