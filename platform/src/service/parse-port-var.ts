import { ConfigError } from "../config";
import { parsePort } from "../config/parse";

export function parsePortVar(raw: string | undefined, name: string): number {
  if (raw === undefined || raw === "") throw new ConfigError(`${name} is not set: use a whole number from 0 (any free port) to 65535.`);
  return parsePort(raw, name, true);
}
