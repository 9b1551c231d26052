/**
 * OpenAI's clients send an array form field as `name[]` (one part per value); curl users send
 * `name` (once or repeated). Either arrives as `name`, an array, before the body is validated.
 */
export function foldArrayFields(body: unknown, names: string[]): void {
  if (typeof body !== "object" || body === null) return;
  const fields = body as Record<string, unknown>;
  const values = (value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
  for (const name of names) {
    const all = [...values(fields[name]), ...values(fields[`${name}[]`])];
    delete fields[`${name}[]`];
    if (all.length) fields[name] = all;
  }
}
