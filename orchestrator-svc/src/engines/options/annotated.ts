/**
 * Newer SGLang releases (and vLLM's config classes) define each option as an annotated field,
 * `name: A[type, Arg(help=…, aliases=[…], choices=CHOICES, action=…, nargs="?", no_cli=True)]`
 * (`A` is `typing.Annotated`; a bare string instead of `Arg(…)` is only help). This reads what the
 * option list needs from such a field's type, resolving `choices=NAME` to the module's own
 * `NAME = [ … ]` (or `{ … }`) list of strings.
 */

export interface AnnotatedOption {
  /** The field's Python type (the first argument of `A[…]`). */
  base: string;
  aliases: string[];
  choices?: string[];
  /** `action="store_true"` / `"store_false"`, or a bool field: a flag. */
  flag: boolean;
  /** `action=argparse.BooleanOptionalAction`: `--x` and `--no-x`. */
  negatable: boolean;
  optionalValue: boolean;
  /** `no_cli=True`: not an option. */
  hidden: boolean;
  /** `cli_name="--x"`: the option's name where it is not the field's. */
  cliName?: string;
  /**
   * Whether the annotation makes an option (SGLang's `_unwrap_annotated`): an `Arg(…)` or a bare help
   * string among its metadata. `A[T, NS("serving")]` alone does not: such a field is registered by hand.
   */
  described: boolean;
}

/** Where the top-level comma after `A[`'s first argument is (brackets and strings skipped), or -1. */
function firstComma(text: string, from: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === "\\") i++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    else if (char === "," && depth === 0) return i;
  }
  return -1;
}

const strings = (text: string) => [...text.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2]);

/** A module-level `NAME = [ "a", "b" ]` (or a set) of `source`, as strings; undefined when there is none. */
export function moduleChoices(source: string, name: string): string[] | undefined {
  const match = new RegExp(`^${name}\\s*=\\s*[\\[{]([^\\]}]*)[\\]}]`, "m").exec(source);
  if (!match) return undefined;
  const values = strings(match[1].replace(/#[^\n]*/g, ""));
  return values.length > 0 ? values : undefined;
}

/** The annotated field's option facts, or undefined when its type is no `A[…]`/`Annotated[…]`. */
export function readAnnotated(type: string, source: string): AnnotatedOption | undefined {
  const start = /^(?:A|Annotated)\[\s*/.exec(type);
  if (!start) return undefined;
  const comma = firstComma(type, start[0].length);
  const base = (comma < 0 ? type.slice(start[0].length).replace(/\]\s*$/, "") : type.slice(start[0].length, comma)).trim();
  const meta = comma < 0 ? "" : type.slice(comma + 1);
  const arg = /\bArg\(/.test(meta) ? meta : "";
  const items: string[] = [];
  for (let rest = meta.replace(/\]\s*$/, ""), at = firstComma(rest, 0); rest.trim() !== ""; at = firstComma(rest, 0)) {
    items.push((at < 0 ? rest : rest.slice(0, at)).trim());
    rest = at < 0 ? "" : rest.slice(at + 1);
  }
  const described = arg !== "" || items.some((item) => /^\(?\s*[rfbu]?["']/i.test(item));
  const aliases = /\baliases\s*=\s*\[([^\]]*)\]/.exec(arg)?.[1];
  const listed = /\bchoices\s*=\s*[\[{]([^\]}]*)[\]}]/.exec(arg)?.[1];
  const named = /\bchoices\s*=\s*([A-Z_][A-Z0-9_]*)\b/.exec(arg)?.[1];
  // Without `choices=`, a `Literal[…]` type gives them (SGLang's arg_utils does the same).
  const literal = /^(?:Optional\[\s*)?Literal\[([^\]]*)\]/.exec(base)?.[1];
  const choices = listed !== undefined ? strings(listed) : named ? moduleChoices(source, named) : literal !== undefined ? strings(literal) : undefined;
  // SGLang's Deprecated*Action classes (argparse_actions.py) take no value, except DeprecatedAliasStoreAction.
  const action = /\baction\s*=\s*("store_true"|"store_false"|"store_const"|argparse\.BooleanOptionalAction|BooleanOptionalAction|Deprecated(?:StoreTrue|StoreConst)?Action\b)/.exec(arg)?.[1];
  const cliName = /\bcli_name\s*=\s*"(-[^"]+)"/.exec(arg)?.[1];
  const negatable = action !== undefined && action.includes("BooleanOptionalAction");
  return {
    base,
    aliases: aliases ? strings(aliases).filter((name) => name.startsWith("-")) : [],
    ...(choices && choices.length > 0 ? { choices } : {}),
    flag: action !== undefined || (/^(Optional\[)?bool\]?$/.test(base) && !/\bnargs\s*=/.test(arg)),
    negatable,
    optionalValue: /\bnargs\s*=\s*"\?"/.test(arg),
    hidden: /\bno_cli\s*=\s*True\b/.test(arg),
    ...(cliName ? { cliName } : {}),
    described,
  };
}
