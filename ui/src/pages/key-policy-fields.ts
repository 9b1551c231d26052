import { KEY_LIMIT_FIELDS, KEY_LIMIT_LABELS, KEY_WEIGHT_MAX, SERVICE_TIERS, type ApiKey } from "@svc/contracts";
import { html, type SafeHtml } from "../html";

/** What a key form holds, as typed: limits, tier and weight beside the name, models and expiry. */
export interface KeyFormValues {
  name?: string;
  models?: string;
  expires?: string;
  requestsPerMinute?: string;
  tokensPerMinute?: string;
  maxParallel?: string;
  dailyTokens?: string;
  monthlyTokens?: string;
  tier?: string;
  weight?: string;
}

/** The form values of a key as it is (what its edit form starts with). */
export function keyValues(key: ApiKey): KeyFormValues {
  const limits = Object.fromEntries(KEY_LIMIT_FIELDS.map((field) => [field, key.limits[field] === null ? "" : String(key.limits[field])]));
  return { models: key.models?.join(", ") ?? "", expires: "", ...limits, tier: key.tier, weight: String(key.weight) };
}

/** The limits, tier and weight inputs of a key form; `prefix` keeps the ids of two forms on one page apart. */
export function policyFields(values: KeyFormValues, prefix: string): SafeHtml {
  const tier = values.tier ?? "default";
  return html`<div class="grid">
      ${KEY_LIMIT_FIELDS.map(
        (field) => html`<div><label for="${prefix}-${field}">${KEY_LIMIT_LABELS[field]}</label>
          <input id="${prefix}-${field}" name="${field}" inputmode="numeric" value="${values[field] ?? ""}" autocomplete="off" /></div>`,
      )}
      <div><label for="${prefix}-tier">Tier</label><select id="${prefix}-tier" name="tier">${SERVICE_TIERS.map((t) => html`<option value="${t}" ${t === tier ? html`selected` : ""}>${t}</option>`)}</select></div>
      <div><label for="${prefix}-weight">Weight</label><input id="${prefix}-weight" name="weight" inputmode="numeric" value="${values.weight ?? "1"}" autocomplete="off" /></div>
    </div>
    <p class="hint">Limits: whole numbers, empty for none (tokens are prompt + completion; budgets renew at 00:00 UTC and on the 1st of the month).
      Tier: the service_tier its requests get by default and the highest they may ask for. Weight: its share of a saturated model against other keys, 1 to ${KEY_WEIGHT_MAX}.</p>`;
}
