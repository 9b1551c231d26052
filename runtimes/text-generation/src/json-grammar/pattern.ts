import { ANY, charSetGbnf } from "./char-sets";
import { parsePattern, type Node } from "./regex-parser";

/** The JSON string, quotes included, of a value matching `pattern` (see regex-parser.ts for what it may hold). */
export function patternGbnf(pattern: string): string {
  const anyText = `(${charSetGbnf(ANY)})*`;
  const alternatives = parsePattern(pattern).map(({ nodes, start, end }) => {
    const parts = [start ? "" : anyText, sequenceGbnf(nodes), end ? "" : anyText].filter(Boolean);
    return parts.length ? parts.join(" ") : '""';
  });
  return `"\\"" (${alternatives.join(" | ")}) "\\""`;
}

function sequenceGbnf(nodes: Node[]): string {
  return nodes.map(nodeGbnf).filter(Boolean).join(" ");
}

function nodeGbnf(node: Node): string {
  switch (node.kind) {
    case "chars":
      return charSetGbnf(node.set) ?? "";
    case "group": {
      const filled = node.alternatives.filter((alternative) => alternative.length > 0).map(sequenceGbnf);
      if (filled.length === 0) return "";
      const group = `(${filled.join(" | ")})`;
      return filled.length < node.alternatives.length ? `${group}?` : group;
    }
    case "repeat": {
      const inner = nodeGbnf(node.node);
      if (!inner || node.max === 0) return "";
      const { min, max } = node;
      const suffix = min === 0 && max === undefined ? "*" : min === 1 && max === undefined ? "+" : min === 0 && max === 1 ? "?" : max === undefined ? `{${min},}` : min === max ? `{${min}}` : `{${min},${max}}`;
      return `(${inner})${suffix}`;
    }
  }
}
