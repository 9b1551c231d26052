import { ConfigError } from "../config";
import { parsePort } from "../config/parse";

export function parsePortVar(raw: string | undefined, name: string): number {
  if (raw === undefined || raw === "") throw new ConfigError(`${name} is not set: use a whole number from 1 to 65535.`);
  return parsePort(raw, name);
}
