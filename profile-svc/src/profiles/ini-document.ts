/**
 * A lossless INI document in the dialect of Python's configparser (which Blackfish used to write
 * profiles.cfg): `[section]` headers, `key = value` or `key: value`, full-line `#` / `;` comments,
 * keys case-insensitive. Every line is kept as written, so a rewrite changes only the lines it must:
 * comments, blank lines, unknown keys and the order of everything else survive.
 */

/** A line of the file that svc cannot take (not INI, or not a valid profile), and why. */
export class LineError extends Error {
  constructor(
    /** 1-based line number. */
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "LineError";
  }
}

interface Line {
  text: string;
  kind: "blank" | "comment" | "section" | "entry";
  /** For section lines: the section name; for entries: the section they are in. */
  section?: string;
  key?: string;
  value?: string;
}

export interface IniEntry {
  value: string;
  /** 1-based line number in the file as read (0 for entries added since). */
  line: number;
}

export interface IniSection {
  name: string;
  line: number;
  /** Keys in lower case, as configparser reads them. */
  entries: Map<string, IniEntry>;
}

const SECTION = /^\[(.+)\]$/;

export class IniDocument {
  private constructor(
    private lines: Line[],
    private readonly eol: string,
  ) {}

  /** Parses `text`; throws LineError naming the first line that is not valid INI. */
  static parse(text: string): IniDocument {
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    const raw = text.split(/\r?\n/);
    if (raw.length > 0 && raw[raw.length - 1] === "") raw.pop();
    const lines: Line[] = [];
    const seenSections = new Map<string, number>();
    const seenKeys = new Map<string, number>();
    let section: string | undefined;
    let sectionHasEntry = false;
    raw.forEach((text, index) => {
      const number = index + 1;
      const trimmed = (index === 0 ? text.replace(/^\uFEFF/, "") : text).trim();
      if (trimmed === "") return lines.push({ text, kind: "blank" });
      if (trimmed.startsWith("#") || trimmed.startsWith(";")) return lines.push({ text, kind: "comment" });
      if (/^\s/.test(text) && sectionHasEntry) {
        throw new LineError(number, `indented line "${trimmed}" would continue the previous value; profile values are one line each — remove the indentation or the line`);
      }
      if (trimmed.startsWith("[")) {
        const match = trimmed.match(SECTION);
        const name = match?.[1].trim();
        if (!name) throw new LineError(number, `"${trimmed}" is not a section header: write it as [name]`);
        const first = seenSections.get(name);
        if (first !== undefined) throw new LineError(number, `section [${name}] appears a second time (first on line ${first}); merge or rename one`);
        seenSections.set(name, number);
        section = name;
        seenKeys.clear();
        sectionHasEntry = false;
        return lines.push({ text, kind: "section", section: name });
      }
      const delimiter = trimmed.search(/[=:]/);
      if (delimiter <= 0) {
        throw new LineError(number, `"${trimmed}" is neither "key = value", a [section] header nor a comment (# or ;)`);
      }
      if (section === undefined) {
        throw new LineError(number, `"${trimmed}" comes before any [section] header: put it under a [profile-name] header`);
      }
      const key = trimmed.slice(0, delimiter).trim().toLowerCase();
      const value = trimmed.slice(delimiter + 1).trim();
      const first = seenKeys.get(key);
      if (first !== undefined) throw new LineError(number, `key "${key}" appears a second time in [${section}] (first on line ${first}); keep one`);
      seenKeys.set(key, number);
      sectionHasEntry = true;
      lines.push({ text, kind: "entry", section, key, value });
    });
    return new IniDocument(lines, eol);
  }

  /** The sections in file order, with their entries. */
  sections(): IniSection[] {
    const result: IniSection[] = [];
    this.lines.forEach((line, index) => {
      if (line.kind === "section") result.push({ name: line.section!, line: index + 1, entries: new Map() });
      else if (line.kind === "entry") result[result.length - 1].entries.set(line.key!, { value: line.value!, line: index + 1 });
    });
    return result;
  }

  has(section: string): boolean {
    return this.lines.some((line) => line.kind === "section" && line.section === section);
  }

  /** [start, end) line indexes of a section: its header up to the next header. */
  private span(section: string): [number, number] | undefined {
    const start = this.lines.findIndex((line) => line.kind === "section" && line.section === section);
    if (start < 0) return undefined;
    let end = this.lines.findIndex((line, index) => index > start && line.kind === "section");
    if (end < 0) end = this.lines.length;
    return [start, end];
  }

  /**
   * Sets `values` in `section` (creating it at the end of the file when missing). An existing line
   * for a key, or for one of its older names in `aliases`, is rewritten in place under the current
   * name; other lines of the section are left as they are. Keys set to `undefined` are removed.
   */
  setSection(section: string, values: Array<[string, string | undefined]>, aliases: Record<string, string[]> = {}): void {
    let span = this.span(section);
    if (!span) {
      const last = this.lines[this.lines.length - 1];
      if (last && last.kind !== "blank") this.lines.push({ text: "", kind: "blank" });
      this.lines.push({ text: `[${section}]`, kind: "section", section });
      span = [this.lines.length - 1, this.lines.length];
    }
    for (const [key, value] of values) {
      const names = [key, ...(aliases[key] ?? [])];
      const [start, end] = span;
      const matches: number[] = [];
      for (let i = start + 1; i < end; i++) if (this.lines[i].kind === "entry" && names.includes(this.lines[i].key!)) matches.push(i);
      // The line under the current name wins over an older name for the same attribute.
      matches.sort((a, b) => names.indexOf(this.lines[a].key!) - names.indexOf(this.lines[b].key!));
      let [keep, ...drop] = matches;
      for (const index of drop.sort((a, b) => b - a)) {
        this.lines.splice(index, 1);
        span = [span[0], span[1] - 1];
        if (index < keep) keep--;
      }
      if (value === undefined) {
        if (keep !== undefined) {
          this.lines.splice(keep, 1);
          span = [span[0], span[1] - 1];
        }
        continue;
      }
      const line: Line = { text: `${key} = ${value}`, kind: "entry", section, key, value };
      if (keep !== undefined) {
        this.lines[keep] = line;
        continue;
      }
      // New key: after the section's last entry (or its header), before trailing blanks and comments.
      let at = span[0] + 1;
      for (let i = span[0] + 1; i < span[1]; i++) if (this.lines[i].kind === "entry") at = i + 1;
      this.lines.splice(at, 0, line);
      span = [span[0], span[1] + 1];
    }
  }

  /**
   * Removes a section with its entries and comments. A block of comments right before the next
   * header is kept: it describes the next section.
   */
  removeSection(section: string): boolean {
    const span = this.span(section);
    if (!span) return false;
    const [start] = span;
    let [, end] = span;
    if (end < this.lines.length) {
      let i = end;
      while (i - 1 > start && this.lines[i - 1].kind === "comment") i--;
      end = i;
    }
    // Drop the blank line that separated it from what came before, when the section goes at the end.
    let from = start;
    if (end === this.lines.length && from > 0 && this.lines[from - 1].kind === "blank") from--;
    this.lines.splice(from, end - from);
    return true;
  }

  toString(): string {
    return this.lines.length === 0 ? "" : this.lines.map((line) => line.text).join(this.eol) + this.eol;
  }
}
