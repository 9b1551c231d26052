import { describe, expect, test } from "bun:test";
import { IniDocument, LineError } from "../src/profiles/ini-document";

const text = `# svc profiles
; written by hand

[default]
# the laptop
schema = local
home_dir = /data/home
cache_dir = /data/cache
colour = blue

[cluster]
type: slurm
host = login.example
user = me
home = /scratch/me
cache = /shared
`;

describe("IniDocument", () => {
  test("an unchanged document is written back byte for byte", () => {
    expect(IniDocument.parse(text).toString()).toBe(text);
    const crlf = text.replaceAll("\n", "\r\n");
    expect(IniDocument.parse(crlf).toString()).toBe(crlf);
  });

  test("reads sections and lower-cased keys with = or : delimiters", () => {
    const sections = IniDocument.parse(text).sections();
    expect(sections.map((s) => s.name)).toEqual(["default", "cluster"]);
    expect(sections[1].entries.get("type")).toEqual({ value: "slurm", line: 12 });
    expect(IniDocument.parse("[a]\nHome_Dir = /x\n").sections()[0].entries.get("home_dir")?.value).toBe("/x");
  });

  test("setSection rewrites only its lines: comments and unknown keys stay, older names become current ones", () => {
    const doc = IniDocument.parse(text);
    doc.setSection("cluster", [["schema", "slurm"], ["host", "login2.example"], ["port", "2222"]], { schema: ["type"] });
    expect(doc.toString()).toBe(text.replace("type: slurm", "schema = slurm").replace("host = login.example", "host = login2.example").replace("cache = /shared\n", "cache = /shared\nport = 2222\n"));
  });

  test("setSection keeps the current name's line when an older one is there too, and drops the older", () => {
    const doc = IniDocument.parse("[a]\nhome = /old\nhome_dir = /new\ncache = /c\n");
    doc.setSection("a", [["home_dir", "/x"], ["cache_dir", "/c"]], { home_dir: ["home"], cache_dir: ["cache"] });
    expect(doc.toString()).toBe("[a]\nhome_dir = /x\ncache_dir = /c\n");
  });

  test("a new section goes at the end after a blank line", () => {
    const doc = IniDocument.parse("[a]\nschema = local\n");
    doc.setSection("b", [["schema", "local"], ["home_dir", "/h"]]);
    expect(doc.toString()).toBe("[a]\nschema = local\n\n[b]\nschema = local\nhome_dir = /h\n");
    const empty = IniDocument.parse("");
    empty.setSection("default", [["schema", "local"]]);
    expect(empty.toString()).toBe("[default]\nschema = local\n");
  });

  test("removeSection drops the section but keeps the comment that introduces the next one", () => {
    const doc = IniDocument.parse("[a]\nx = 1\n\n# about b\n[b]\ny = 2\n\n[c]\nz = 3\n");
    doc.removeSection("a");
    expect(doc.toString()).toBe("# about b\n[b]\ny = 2\n\n[c]\nz = 3\n");
    doc.removeSection("c");
    expect(doc.toString()).toBe("# about b\n[b]\ny = 2\n");
  });

  const malformed: Array<[string, number, RegExp]> = [
    ["[a]\nschema = local\njust words\n", 3, /neither "key = value"/],
    ["schema = local\n[a]\n", 1, /before any \[section\]/],
    ["[a]\nx = 1\n\n[a]\n", 4, /appears a second time \(first on line 1\)/],
    ["[a]\nx = 1\nX = 2\n", 3, /key "x" appears a second time/],
    ["[a]\n[broken\n", 2, /not a section header/],
    ["[a]\nx = 1\n  continued\n", 3, /indented line/],
    ["[a]\n= value\n", 2, /neither/],
  ];
  for (const [input, line, reason] of malformed) {
    test(`reports line ${line} of ${JSON.stringify(input)}`, () => {
      try {
        IniDocument.parse(input);
        throw new Error("parsed");
      } catch (error) {
        expect(error).toBeInstanceOf(LineError);
        expect((error as LineError).line).toBe(line);
        expect((error as LineError).reason).toMatch(reason);
      }
    });
  }
});
