/**
 * Writes an engine's option list (beside this file) from the engine's Python source at a release:
 * `bun generate.ts vllm|sglang <checkout> <version> <source note> [<file>=<commit>@<date> …] [--oldest]`,
 * written to `<engine>-<version>.json`, or with `--oldest` to `<engine>.json`, the engine's first list
 * (v0.11.1, v0.5.5); versions.ts imports each, and the newest one is the pinned one.
 *
 * Both engines build their command lines from dataclasses: every field of vLLM's EngineArgs and
 * frontend args, and of SGLang's ServerArgs, is an option `--field-name` (vLLM: a bool field is
 * `--x` and `--no-x`; SGLang: a bool is a bare `--x`). The `add_argument(` calls add what the fields
 * do not say: other spellings (`-tp`, `--tp-size`), options taking an optional value (`nargs="?"`),
 * and simple `choices=[...]` lists; `Literal[...]` field types give choices too. Newer releases
 * annotate the fields instead (`A[type, Arg(aliases=…, choices=…)]`: annotated.ts), and newer SGLang
 * splits them over namespace classes in `arg_groups/fields/` (fields.ts: used where the checkout has it).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readAnnotated } from "./annotated";
import { CHOICES_FILE, fieldsFiles, hasFieldsLayout } from "./fields";
import type { EngineOptionList, UpstreamOption } from "./option-list";

interface Layout {
  /**
   * Source files, relative to the checkout, and the dataclasses in each whose fields are options;
   * `optional` ones may be missing from a release's file (vLLM split BaseFrontendArgs out of
   * FrontendArgs in v0.17: v0.12 to v0.16 have FrontendArgs alone).
   */
  files: { path: string; classes: string[]; optional?: string[] }[];
  /** Bool fields: `--x` and `--no-x` (argparse.BooleanOptionalAction, vLLM), or `--x` alone (store_true, SGLang). */
  negatableFlags: boolean;
  /** Options added outside the files read (subcommand parsers), each with where it comes from. */
  extra: (UpstreamOption & { from: string })[];
  /** Fields that are no option (private ones). */
  skip: RegExp;
  /** Files whose module-level lists `choices=NAME` may name besides each file's own (SGLang's choices.py). */
  choicesFrom?: string[];
  /**
   * SGLang: only what its parser registers is an option. A field is one where annotated (`A[…]`, not
   * `no_cli`) or named by an `add_argument(` call (its option string, or `dest="field"`, which puts the
   * field under the call's spelling); other fields (`stat_loggers`) have no command-line surface.
   */
  registeredOnly?: boolean;
}

const LAYOUTS: Record<"vllm" | "sglang", Layout> = {
  vllm: {
    files: [
      { path: "vllm/engine/arg_utils.py", classes: ["EngineArgs"] },
      { path: "vllm/entrypoints/openai/cli_args.py", classes: ["BaseFrontendArgs", "FrontendArgs"], optional: ["BaseFrontendArgs"] },
    ],
    negatableFlags: true,
    extra: [
      { name: "--enable-log-requests", aliases: ["--no-enable-log-requests"], value: "none", from: "AsyncEngineArgs" },
      { name: "--disable-log-requests", aliases: ["--no-disable-log-requests"], value: "none", from: "AsyncEngineArgs (deprecated)" },
      { name: "--headless", aliases: [], value: "none", from: "make_arg_parser" },
      { name: "--api-server-count", aliases: ["-asc"], value: "required", from: "make_arg_parser" },
      { name: "--config", aliases: [], value: "required", from: "FlexibleArgumentParser (a YAML file of options)" },
    ],
    skip: /^_/,
  },
  sglang: {
    files: [{ path: "python/sglang/srt/server_args.py", classes: ["ServerArgs"] }],
    negatableFlags: false,
    extra: [],
    skip: /^_/,
    registeredOnly: true,
  },
};

/** SGLang's split ServerArgs (fields.ts): every namespace class of arg_groups/fields/, choices.py for named choices. */
export const sglangFieldsLayout = (checkout: string): Layout => ({
  ...LAYOUTS.sglang,
  files: fieldsFiles(checkout),
  choicesFrom: [CHOICES_FILE],
});

interface Field {
  name: string;
  type: string;
}

const hasClass = (source: string, className: string) => new RegExp(`^class ${className}\\b`, "m").test(source);

/** The `name: type = …` fields of `class <name>` (up to its first method), types joined over continuation lines. */
export function dataclassFields(source: string, className: string): Field[] {
  const lines = source.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^class ${className}\\b`).test(line));
  if (start < 0) throw new Error(`class ${className} not found`);
  const fields: Field[] = [];
  let current: Field | undefined;
  let depth = 0;
  let inDocstring = false;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line) && line.trim() !== "") break;
    if (/^ {4}(def |@)/.test(line)) break;
    // A docstring's lines (the class's own, or one after a field) are no fields.
    const quotes = (line.match(/"""/g) ?? []).length;
    if (inDocstring || (depth === 0 && /^\s*(r?""")/.test(line))) {
      if (quotes % 2 === 1) inDocstring = !inDocstring;
      continue;
    }
    const field = /^ {4}([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$/.exec(line);
    if (field && depth === 0) {
      current = { name: field[1], type: field[2].split(" = ")[0] };
      fields.push(current);
      depth = countDepth(field[2]);
    } else if (current && depth > 0) {
      depth += countDepth(line);
      current.type += ` ${depth === 0 ? line.trim().split(" = ")[0] : line.trim()}`;
    }
  }
  return fields;
}

/** Brackets opened minus closed, outside strings and comments (help texts may hold a lone bracket). */
const countDepth = (text: string) => {
  const code = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""').replace(/#.*$/, "");
  return (code.match(/[([{]/g)?.length ?? 0) - (code.match(/[)\]}]/g)?.length ?? 0);
};

/**
 * One leading argument of an `add_argument(` call when it is plain string literals (adjacent ones
 * joined, as Python does) followed by a comma or the call's end. A name made at run time (an f-string,
 * `"--x-" + name`) is not read: it ends the leading names.
 */
const LEADING_STRING = /^\s*((?:"[^"\n]*"\s*)+)(?:,|$)/;

/** An option string as argparse users type it: `-x`, `--name-with-dashes`, never ending in a dash. */
export const OPTION_STRING = /^-{1,2}[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/**
 * Each `add_argument(` call's leading option strings and its simple keywords; no choices from
 * `choices=["auto"] + more` (vLLM's `--mm-processor-device` adds the platform's device). `sglang` reads
 * them as SGLang's parser does (its Deprecated*Action flags, `dest=`).
 */
export function addArgumentCalls(source: string, sglang = false): { names: string[]; optionalValue: boolean; choices?: string[]; flag: boolean; dest?: string }[] {
  const calls = [];
  for (const match of source.matchAll(/add_argument\(/g)) {
    let depth = 1;
    let end = match.index! + match[0].length;
    while (depth > 0 && end < source.length) {
      const char = source[end++];
      if (char === "(") depth++;
      else if (char === ")") depth--;
    }
    const body = source.slice(match.index! + match[0].length, end - 1);
    // The option strings lead the call: `"--x", "-x", type=…` (comments between them dropped).
    let rest = body.replace(/#[^\n]*/g, "");
    const leading: string[] = [];
    for (let m = LEADING_STRING.exec(rest); m; m = LEADING_STRING.exec(rest)) {
      // Python joins adjacent literals: `"--pass-" "config"` is `--pass-config`.
      const name = [...m[1].matchAll(/"([^"]*)"/g)].map((piece) => piece[1]).join("");
      if (!name.startsWith("-")) break;
      // What is no option string (`"--x-"`, a piece of a name made at run time) is none.
      if (!OPTION_STRING.test(name)) {
        console.warn(`generate: skipped ${JSON.stringify(name)}, no option string`);
        break;
      }
      leading.push(name);
      rest = rest.slice(m[0].length);
    }
    if (leading.length === 0) continue;
    // Only a list that is the whole value (`choices=["auto"] + parsers` names more than it lists).
    const choices = /choices=\[([^\]]*)\]\s*(?:,|$)/.exec(body)?.[1];
    const strings = choices ? [...choices.matchAll(/"([^"]*)"/g)].map((m) => m[1]) : undefined;
    calls.push({
      names: leading,
      optionalValue: /nargs="\?"/.test(body),
      choices: strings && strings.length > 0 ? strings : undefined,
      // argparse's own flags, and SGLang's Deprecated*Action (argparse_actions.py: nargs=0) but DeprecatedAliasStoreAction.
      flag: (sglang ? /action=(?:"store_(?:true|false|const)"|Deprecated(?:StoreTrue|StoreConst)?Action\b)/ : /action="store_(true|false)"/).test(body),
      dest: sglang ? /\bdest="([A-Za-z_][A-Za-z0-9_]*)"/.exec(body)?.[1] : undefined,
    });
  }
  return calls;
}

const optionName = (field: string) => `--${field.replaceAll("_", "-")}`;

function fromField(field: Field, layout: Layout, source: string): UpstreamOption | undefined {
  const annotated = readAnnotated(field.type, source);
  // SGLang registers a field annotated with neither Arg(…) nor help by hand, as a plain one.
  if (annotated && !(layout.registeredOnly && !annotated.described)) {
    if (annotated.hidden) return undefined;
    const name = annotated.cliName ?? optionName(field.name);
    const negations = annotated.negatable || (annotated.flag && layout.negatableFlags && !/store_/.test(field.type)) ? [`--no-${field.name.replaceAll("_", "-")}`] : [];
    const value = annotated.flag ? "none" : annotated.optionalValue ? "optional" : "required";
    return { name, aliases: [...annotated.aliases.filter((alias) => alias !== name), ...negations], value, ...(annotated.choices && !annotated.flag ? { choices: annotated.choices } : {}) };
  }
  const types = field.type;
  const isBool = /\bbool\b/.test(types);
  const literal = /Literal\[([^\]]*)\]/.exec(types)?.[1];
  const choices = literal ? [...literal.matchAll(/"([^"]*)"/g)].map((m) => m[1]) : [];
  if (isBool && /\bstr\b/.test(types)) return { name: optionName(field.name), aliases: [], value: "optional" };
  if (isBool) return { name: optionName(field.name), aliases: layout.negatableFlags ? [`--no-${field.name.replaceAll("_", "-")}`] : [], value: "none" };
  return { name: optionName(field.name), aliases: [], value: "required", ...(choices.length > 0 ? { choices } : {}) };
}

export function optionsFrom(checkout: string, layout: Layout): UpstreamOption[] {
  const options = new Map<string, UpstreamOption>();
  const shared = (layout.choicesFrom ?? []).filter((path) => existsSync(join(checkout, path))).map((path) => readFileSync(join(checkout, path), "utf8"));
  // Plain fields waiting for an add_argument call to register them (registeredOnly), by option name and by field.
  const unregistered = new Map<string, UpstreamOption>();
  const byField = new Map<string, string>();
  for (const file of layout.files) {
    const source = readFileSync(join(checkout, file.path), "utf8");
    const named = [source, ...shared].join("\n");
    for (const className of file.classes) {
      if (file.optional?.includes(className) && !hasClass(source, className)) continue;
      for (const field of dataclassFields(source, className)) {
        const option = layout.skip.test(field.name) ? undefined : fromField(field, layout, named);
        if (!option) continue;
        if (layout.registeredOnly && !readAnnotated(field.type, named)?.described) {
          unregistered.set(option.name, option);
          byField.set(field.name, option.name);
        } else options.set(option.name, option);
      }
    }
    for (const call of addArgumentCalls(source, layout.registeredOnly)) {
      // The plain field this call registers: by its option string, else by `dest=` (then under the call's spelling only).
      const byDest = call.dest !== undefined && !call.names.some((name) => options.has(name) || unregistered.has(name)) ? byField.get(call.dest) : undefined;
      const pending = call.names.find((name) => unregistered.has(name)) ?? (byDest !== undefined && unregistered.has(byDest) ? byDest : undefined);
      if (pending !== undefined) {
        options.set(pending, unregistered.get(pending)!);
        unregistered.delete(pending);
      }
      const known = [...call.names, ...(pending !== undefined ? [pending] : [])].find((name) => options.has(name));
      const option: UpstreamOption = known ? options.get(known)! : { name: call.names[0], aliases: [], value: call.flag ? "none" : "required" };
      if (known) options.delete(known);
      const names = [...new Set([...call.names, ...(known !== undefined && !call.names.includes(known) ? [] : [option.name]), ...option.aliases])];
      const merged: UpstreamOption = { ...option, name: call.names[0], aliases: names.filter((name) => name !== call.names[0]) };
      if (call.optionalValue) merged.value = "optional";
      if (call.flag) merged.value = "none";
      if (call.choices) merged.choices = call.choices;
      options.set(merged.name, merged);
    }
  }
  for (const { from: _from, ...extra } of layout.extra) options.set(extra.name, extra);
  // A name that is no option string (`--pass-`) was misread: left out, and said.
  for (const [name, option] of options) {
    if (!OPTION_STRING.test(name)) {
      console.warn(`generate: left out ${JSON.stringify(name)}, no option string`);
      options.delete(name);
    } else option.aliases = option.aliases.filter((alias) => OPTION_STRING.test(alias));
  }
  return [...options.values()].sort((a, b) => a.name.localeCompare(b.name));
}

if (import.meta.main) {
  const [engine, checkout, version, source, ...where] = process.argv.slice(2);
  if ((engine !== "vllm" && engine !== "sglang") || !checkout || !version || !source) {
    console.error("usage: bun generate.ts vllm|sglang <checkout> <version> <where the source came from> [<file>=<commit>@<YYYY-MM-DD> …] [--oldest]");
    process.exit(2);
  }
  const layout = engine === "sglang" && hasFieldsLayout(checkout) ? sglangFieldsLayout(checkout) : LAYOUTS[engine];
  const oldest = where.includes("--oldest");
  const paths = [...layout.files.map((file) => file.path), ...(layout.choicesFrom ?? []).filter((path) => existsSync(join(checkout, path)))];
  const commits = paths.map((path) => {
    const given = where.find((each) => each.startsWith(`${path}=`))?.slice(path.length + 1);
    const [commit, date] = given ? given.split("@") : [];
    return { path, commit: commit || null, date: date || null };
  });
  const list: EngineOptionList = {
    engine,
    version,
    source,
    files: paths,
    commits,
    generatedBy: "orchestrator-svc/src/engines/options/generate.ts",
    options: optionsFrom(checkout, layout),
  };
  // One option a line, so a new version's list reads as a short diff.
  const { options, ...head } = list;
  const text = JSON.stringify(head, null, 2).replace(/"commits": \[[^\]]*\]/, `"commits": [\n${commits.map((each) => `    ${JSON.stringify(each)}`).join(",\n")}\n  ]`).replace(/\n}$/, `,\n  "options": [\n${options.map((option) => `    ${JSON.stringify(option)}`).join(",\n")}\n  ]\n}\n`);
  writeFileSync(join(import.meta.dir, oldest ? `${engine}.json` : `${engine}-${version}.json`), text);
  console.log(`${engine} ${version}: ${list.options.length} options`);
}
