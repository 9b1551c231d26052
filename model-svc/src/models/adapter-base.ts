import { adapterFit, type AdapterBase, type Model } from "@svc/contracts";

/**
 * How an adapter's base stands in the registry of the adapter's profile: registered (some snapshot
 * of it fits, as far as the facts tell), registered but no snapshot fits (the newest one's
 * problems), not registered (with the command that gets it), or not named by the adapter at all.
 * `bases`: the registry's rows of the named base on the adapter's profile.
 */
export function adapterBaseOf(adapter: Model & { adapter: NonNullable<Model["adapter"]> }, bases: Model[]): AdapterBase {
  const repo = adapter.adapter.base;
  if (repo === undefined) {
    const named = adapter.adapter.baseNamed;
    const what = named === undefined ? "It names no base model" : `It names ${JSON.stringify(named)} as its base, which is not a repo id`;
    return { state: "not_named", problems: [], message: `${what}: serve it on a registered model it fits.` };
  }
  if (bases.length === 0) {
    const profile = adapter.profile === "default" ? "" : ` --profile ${adapter.profile}`;
    return { state: "not_registered", repo, problems: [], message: `Base ${repo} is not in the registry of profile ${adapter.profile}: svc model add ${repo}${profile}` };
  }
  const fits = [...bases].sort((a, b) => b.seenAt.localeCompare(a.seenAt)).map((base) => adapterFit(adapter, base));
  if (fits.some((fit) => fit.fits)) return { state: "registered", repo, problems: [], message: `Base ${repo} is registered.` };
  const problems = fits[0].problems;
  return { state: "does_not_fit", repo, problems, message: `Base ${repo} is registered, but it does not fit: ${problems.join(" ")}` };
}
