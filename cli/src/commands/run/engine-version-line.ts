import type { EngineVersionCheck } from "@svc/contracts";

const LABELS = { vllm: "vLLM", sglang: "SGLang" } as const;

/** `svc run`'s line on a GPU launch's engine version: which it is, how svc knows, and which option list checked the arguments. */
export function engineVersionLine(check: EngineVersionCheck): string {
  const label = LABELS[check.engine];
  if (check.checkedAgainst === null) return `Engine: ${label}, version unknown${check.how ? ` (${check.how})` : ""}: its arguments were not checked.`;
  const how = { given: "--engine-version", found: `found: ${check.how ?? "where it runs"}`, pinned: "svc's pinned version", unknown: "unknown" }[check.source];
  const same = check.checkedAgainst.replace(/^v/, "") === check.version?.replace(/^v/, "");
  const against = same ? "" : `, checked against ${label} ${check.checkedAgainst}'s options`;
  return `Engine: ${label} ${check.version} (${how})${against || `: arguments checked against its options`}.`;
}
