/** Why a hub request failed, in terms the downloads feature turns into statuses and messages. */
export type HubErrorKind = "not-found" | "access-denied" | "unreachable" | "bad-answer" | "dropped";

export class HubError extends Error {
  constructor(
    readonly kind: HubErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "HubError";
  }
}

const TOKEN_HINT =
  "If the repository is private or gated, accept its conditions on the hub and set HF_TOKEN to a token with access in the environment `svc start` runs in.";

/** A hub error answer as a HubError whose message says what to check, HF_TOKEN included. */
export function hubErrorFor(response: Response, what: string, endpoint: string): HubError {
  const code = response.headers.get("x-error-code") ?? "";
  const hubMessage = response.headers.get("x-error-message");
  const said = hubMessage ? ` (the hub said: ${hubMessage})` : "";
  const token = response.status === 401 || response.status === 403;
  if (code === "GatedRepo" || response.status === 403) {
    return new HubError("access-denied", `${what} is gated or private on ${endpoint}: access was refused${said}. ${TOKEN_HINT}`, response.status);
  }
  if (code === "RevisionNotFound") {
    return new HubError("not-found", `${what} was not found on ${endpoint}: no such revision${said}. Check the branch, tag or commit id. ${TOKEN_HINT}`, response.status);
  }
  if (code === "EntryNotFound") {
    return new HubError("not-found", `${what} was not found on ${endpoint}${said}.`, response.status);
  }
  if (response.status === 404 || response.status === 401 || code === "RepoNotFound") {
    return new HubError(
      "not-found",
      `${what} was not found on ${endpoint}${token ? " (or is private)" : ""}${said}. Check the repo id (<owner>/<name>) and revision. ${TOKEN_HINT}`,
      response.status,
    );
  }
  return new HubError("bad-answer", `${endpoint} answered ${response.status} ${response.statusText} for ${what}${said}; try again later.`, response.status);
}
