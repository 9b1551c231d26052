/**
 * The string `format`s OpenAI's structured outputs accept, each as the (anchored) pattern svc writes
 * it by. Each matches only valid values, though not every valid value: dates up to the 28th of
 * February (no leap-year rule), times with seconds and a zone, e-mail addresses and host names of a
 * few short labels, IPv6 addresses in full (eight groups, no `::`), UUIDs of versions 1 to 8 in
 * lower case.
 */

const hour = "(?:[01][0-9]|2[0-3])";
const date = "[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))";
const time = `${hour}:[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,6})?(?:Z|[+-]${hour}:[0-5][0-9])`;

const count = "[0-9]{1,9}";
const durationDate = `${count}Y(?:${count}M)?(?:${count}D)?|${count}M(?:${count}D)?|${count}D`;
const durationTime = `T(?:${count}H(?:${count}M)?(?:${count}S)?|${count}M(?:${count}S)?|${count}S)`;

const label = "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,14}[a-zA-Z0-9])?";
const octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])";

const FORMATS: Record<string, string> = {
  "date-time": `${date}T${time}`,
  date,
  time,
  duration: `P(?:(?:${durationDate})(?:${durationTime})?|${durationTime}|${count}W)`,
  email: `[a-zA-Z0-9_+-]{1,16}(?:\\.[a-zA-Z0-9_+-]{1,16})?@(?:${label}\\.){1,2}[a-zA-Z]{2,6}`,
  hostname: `${label}(?:\\.${label}){0,3}`,
  ipv4: `${octet}(?:\\.${octet}){3}`,
  ipv6: "[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){7}",
  uuid: "[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
};

export const STRING_FORMATS = Object.keys(FORMATS);

/** The pattern of the values svc writes for `format`; undefined for a format not written here. */
export function formatPattern(format: string): string | undefined {
  return Object.hasOwn(FORMATS, format) ? `^(?:${FORMATS[format]})$` : undefined;
}
