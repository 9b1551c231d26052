import { ApiError, type ProfileChange } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import type { Prompter } from "../../prompt";

/**
 * Sends a profile create or update; when the cluster's host is not in known_hosts yet, shows its
 * key's fingerprint and asks (as ssh does) before sending again with that fingerprint confirmed,
 * which records it. `--host-key-fingerprint` confirms a fingerprint checked beforehand; `--yes`
 * accepts the one shown (scripts on a trusted network); without either and without a terminal,
 * nothing is recorded and the message says how to confirm.
 */
export async function confirmingHostKey(
  ctx: CliContext,
  prompter: Prompter,
  options: { yes?: boolean; hostKeyFingerprint?: string },
  send: (hostKeyFingerprint: string | undefined) => Promise<ProfileChange>,
): Promise<ProfileChange> {
  const given = options.hostKeyFingerprint === undefined ? undefined : String(options.hostKeyFingerprint);
  try {
    return await send(given);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "ssh_host_key_unknown") || given !== undefined) throw error;
    const { name, fingerprint } = (error.details ?? {}) as { name?: string; fingerprint?: string };
    if (!fingerprint) throw error;
    ctx.io.err(error.message);
    if (options.yes) {
      ctx.io.err(`Accepting ${fingerprint} for ${name} (--yes).`);
    } else if (!prompter.interactive) {
      throw new UsageError(`the host key of ${name} is not confirmed: once you have checked it, pass --host-key-fingerprint ${fingerprint}.`);
    } else if (!(await prompter.confirm(`Are you sure you want to continue connecting to ${name}?`, { flag: "--host-key-fingerprint" }))) {
      throw new UsageError(`nothing was created or recorded: the host key of ${name} was not accepted.`);
    }
    return send(fingerprint);
  }
}
