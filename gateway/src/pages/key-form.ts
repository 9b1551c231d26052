import { KEY_LIMIT_FIELDS, KEY_LIMIT_LABELS, KEY_LIMIT_MAX, KEY_WEIGHT_MAX, SERVICE_TIERS, type CreateKeyRequest, type ServiceTier, type UpdateKeyRequest } from "@svc/contracts";
import type { KeyFormValues } from "@svc/ui";

type Read<T> = { request: T } | { problem: string };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const REPO = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

class FormProblem extends Error {}

function models(text: string | undefined): string[] | undefined {
  const list = text?.split(",").map((model) => model.trim()).filter(Boolean);
  const bad = list?.find((model) => !REPO.test(model));
  if (bad) throw new FormProblem(`Models: '${bad}' is not a repo id (owner/name).`);
  return list?.length ? list : undefined;
}

function expires(text: string | undefined): string | undefined {
  const given = text?.trim() || undefined;
  if (given && !/^[1-9][0-9]{0,5}[mhdw]$/.test(given) && !/^\d{4}-\d{2}-\d{2}/.test(given)) throw new FormProblem(`Expires: '${given}' is neither a duration (30d, 12h, 90m, 2w) nor a date such as 2027-01-31.`);
  return given;
}

function whole(label: string, text: string, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new FormProblem(`${label}: '${text}' is not a whole number from 1 to ${max}.`);
  return value;
}

/** The limits, tier and weight a form gives; an empty limit is none (null). */
function policy(values: KeyFormValues) {
  const fields: Partial<Record<(typeof KEY_LIMIT_FIELDS)[number], number | null>> & { tier?: ServiceTier; weight?: number } = {};
  for (const field of KEY_LIMIT_FIELDS) {
    const text = values[field]?.trim() ?? "";
    fields[field] = text === "" ? null : whole(KEY_LIMIT_LABELS[field], text, KEY_LIMIT_MAX[field]);
  }
  const tier = values.tier?.trim();
  if (tier) {
    const known = SERVICE_TIERS.find((candidate) => candidate === tier);
    if (!known) throw new FormProblem(`Tier: '${tier}' is not one of ${SERVICE_TIERS.join(", ")}.`);
    fields.tier = known;
  }
  const weight = values.weight?.trim();
  if (weight) fields.weight = whole("Weight", weight, KEY_WEIGHT_MAX);
  return fields;
}

function read<T>(make: () => T): Read<T> {
  try {
    return { request: make() };
  } catch (error) {
    if (error instanceof FormProblem) return { problem: error.message };
    throw error;
  }
}

/** The Keys page's create form as the API's request, or what is wrong with it in the words of the API's rules. */
export function createRequestFrom(values: KeyFormValues): Read<CreateKeyRequest> {
  return read(() => {
    const name = values.name?.trim() ?? "";
    if (!NAME.test(name)) throw new FormProblem("Name: 1 to 64 letters, digits, . _ @ -, starting with a letter or digit.");
    const limits = Object.fromEntries(Object.entries(policy(values)).filter(([, value]) => value !== null));
    const list = models(values.models);
    const expiry = expires(values.expires);
    return { name, ...(list ? { models: list } : {}), ...(expiry ? { expires: expiry } : {}), ...limits };
  });
}

/** A key's edit form as the update it asks for: every limit as typed (empty removes it), models (empty: every model), expiry (empty: as it is; never: none). */
export function updateRequestFrom(values: KeyFormValues): Read<UpdateKeyRequest> {
  return read(() => {
    const expiry = values.expires?.trim();
    return {
      ...policy(values),
      models: models(values.models) ?? null,
      ...(expiry === "never" || expiry === "none" ? { expires: null } : expiry ? { expires: expires(expiry) } : {}),
    };
  });
}
