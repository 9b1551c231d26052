/**
 * Newer SGLang splits ServerArgs over namespace classes, one file per namespace under
 * `python/sglang/srt/arg_groups/fields/` (`class Serving(msgspec.Struct): _NS_PATH = "serving"`,
 * fields `name: A[type, "help"]` or `A[type, Arg(…)]`), turned into options by
 * `arg_groups/arg_utils.py` (`add_cli_args_from_dataclass`): `--field-name` or `cli_name=`, `aliases=`,
 * a bool is a bare `--x` (store_true), `choices=` or a `Literal[…]` type gives choices, and
 * `choices=NAME` names a list of `arg_groups/choices.py`. Fields without `A[…]` are registered by hand
 * (`add_argument(` in `server_args.py`, read for its option strings where the checkout has it).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const FIELDS_DIR = "python/sglang/srt/arg_groups/fields";
export const CHOICES_FILE = "python/sglang/srt/arg_groups/choices.py";
export const SERVER_ARGS_FILE = "python/sglang/srt/server_args.py";

/** The classes of a fields file that declare a namespace (`_NS_PATH = …` in their body). */
export function namespaceClasses(source: string): string[] {
  const classes: string[] = [];
  let current: string | undefined;
  for (const line of source.split("\n")) {
    const declared = /^class ([A-Za-z_][A-Za-z0-9_]*)\b/.exec(line)?.[1];
    if (declared) current = declared;
    else if (/^\S/.test(line)) current = undefined;
    else if (current && /^ {4}_NS_PATH\s*=/.test(line) && !classes.includes(current)) classes.push(current);
  }
  return classes;
}

/** The files the fields layout reads in `checkout` and the namespace classes of each. */
export function fieldsFiles(checkout: string): { path: string; classes: string[] }[] {
  const names = readdirSync(join(checkout, FIELDS_DIR)).filter((name) => name.endsWith(".py") && name !== "__init__.py").sort();
  const files = names.map((name) => {
    const path = `${FIELDS_DIR}/${name}`;
    return { path, classes: namespaceClasses(readFileSync(join(checkout, path), "utf8")) };
  });
  return existsSync(join(checkout, SERVER_ARGS_FILE)) ? [...files, { path: SERVER_ARGS_FILE, classes: [] }] : files;
}

export const hasFieldsLayout = (checkout: string) => existsSync(join(checkout, FIELDS_DIR));
