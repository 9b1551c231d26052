import { ANY, charSetGbnf, intersect, normalize, type CharSet } from "./char-sets";
import { parsePattern, type Node } from "./regex-parser";

/**
 * Strings that several constraints hold at once (a `pattern` and a `format`, a pattern and
 * `minLength`/`maxLength`): each constraint as an automaton, their product (a state per pair of
 * states, a move per overlap of their moves), kept to the states that can still end, and written as
 * GBNF rules, one per state. A string the grammar writes matches every constraint.
 */

/** An automaton without empty moves; state 0 starts. */
export interface Automaton {
  moves: Array<Array<{ set: CharSet; to: number }>>;
  accepting: boolean[];
}

/** The most states a product may have before it is refused as too large for a grammar. */
export const MAX_STATES = 4000;

/** The strings `pattern` matches (unanchored where it says no ^ or $). */
export function patternAutomaton(pattern: string): Automaton {
  const builder = new Builder();
  const start = builder.state();
  const accept = builder.state();
  for (const { nodes, start: anchoredStart, end: anchoredEnd } of parsePattern(pattern)) {
    let at = builder.state();
    builder.move(start, at, null);
    if (!anchoredStart) at = builder.node(anyText, at);
    at = builder.sequence(nodes, at);
    if (!anchoredEnd) at = builder.node(anyText, at);
    builder.move(at, accept, null);
  }
  return builder.withoutEmptyMoves(accept);
}

/** Strings of `min` to `max` characters (no upper limit when `max` is undefined). */
export function lengthAutomaton(min: number, max: number | undefined): Automaton {
  const builder = new Builder();
  const start = builder.state();
  const accept = builder.node({ kind: "repeat", node: { kind: "chars", set: ANY }, min, max }, start);
  return builder.withoutEmptyMoves(accept);
}

const anyText: Node = { kind: "repeat", node: { kind: "chars", set: ANY }, min: 0, max: undefined };

/** The strings both accept, pruned to the states that can still end; undefined when it would exceed MAX_STATES. */
export function product(a: Automaton, b: Automaton): Automaton | undefined {
  if (a.moves.length === 0 || b.moves.length === 0) return { moves: [], accepting: [] };
  const index = new Map<string, number>();
  const pairs: Array<[number, number]> = [];
  const add = (x: number, y: number) => {
    const key = `${x},${y}`;
    if (!index.has(key)) {
      index.set(key, pairs.length);
      pairs.push([x, y]);
    }
    return index.get(key)!;
  };
  add(0, 0);
  const moves: Automaton["moves"] = [];
  for (let i = 0; i < pairs.length; i++) {
    if (pairs.length > MAX_STATES) return undefined;
    const [x, y] = pairs[i];
    moves[i] = [];
    for (const first of a.moves[x]) {
      for (const second of b.moves[y]) {
        const set = intersect(first.set, second.set);
        if (set.length) moves[i].push({ set, to: add(first.to, second.to) });
      }
    }
  }
  return pruned({ moves, accepting: pairs.map(([x, y]) => a.accepting[x] && b.accepting[y]) });
}

/** Only the states reachable from the start that can reach an accepting state, renumbered. */
function pruned(automaton: Automaton): Automaton {
  const comingFrom = automaton.moves.map(() => [] as number[]);
  automaton.moves.forEach((moves, state) => moves.forEach((move) => comingFrom[move.to].push(state)));
  const canEnd = automaton.accepting.slice();
  const pending = canEnd.flatMap((accepting, state) => (accepting ? [state] : []));
  while (pending.length) {
    for (const state of comingFrom[pending.pop()!]) {
      if (!canEnd[state]) {
        canEnd[state] = true;
        pending.push(state);
      }
    }
  }
  const order: number[] = [];
  const renumbered = new Map<number, number>();
  const visit = (state: number) => {
    if (renumbered.has(state) || !canEnd[state]) return;
    renumbered.set(state, order.length);
    order.push(state);
  };
  visit(0);
  for (let i = 0; i < order.length; i++) for (const move of automaton.moves[order[i]]) visit(move.to);
  return {
    moves: order.map((state) => automaton.moves[state].filter((move) => canEnd[move.to]).map((move) => ({ set: move.set, to: renumbered.get(move.to)! }))),
    accepting: order.map((state) => automaton.accepting[state]),
  };
}

/** The JSON string (quotes included) of what the automaton accepts, as an expression and its rules named `<name>-<state>`; undefined when it accepts nothing. */
export function automatonGbnf(automaton: Automaton, name: string): { gbnf: string; rules: string[] } | undefined {
  if (automaton.moves.length === 0) return undefined;
  const rules = automaton.moves.map((moves, state) => {
    const byTarget = new Map<number, CharSet>();
    for (const move of moves) byTarget.set(move.to, normalize([...(byTarget.get(move.to) ?? []), ...move.set]));
    const alternatives = [...byTarget].map(([to, set]) => `${charSetGbnf(set)} ${name}-${to}`);
    const body = alternatives.length === 0 ? '""' : automaton.accepting[state] ? `(${alternatives.join(" | ")})?` : alternatives.join(" | ");
    return `${name}-${state} ::= ${body}`;
  });
  return { gbnf: `"\\"" ${name}-0 "\\""`, rules };
}

/** Builds an automaton with empty moves (Thompson's construction), then takes them out. */
class Builder {
  private readonly moves: Array<Array<{ set: CharSet | null; to: number }>> = [];

  state(): number {
    this.moves.push([]);
    return this.moves.length - 1;
  }

  move(from: number, to: number, set: CharSet | null): void {
    this.moves[from].push({ set, to });
  }

  sequence(nodes: Node[], from: number): number {
    return nodes.reduce((at, node) => this.node(node, at), from);
  }

  /** Adds `node` from state `from`; the state it ends in. */
  node(node: Node, from: number): number {
    switch (node.kind) {
      case "chars": {
        const to = this.state();
        this.move(from, to, node.set);
        return to;
      }
      case "group": {
        const start = this.state();
        const end = this.state();
        this.move(from, start, null);
        for (const alternative of node.alternatives) this.move(this.sequence(alternative, start), end, null);
        return end;
      }
      case "repeat": {
        let at = from;
        for (let i = 0; i < node.min; i++) at = this.node(node.node, at);
        if (node.max === undefined) {
          const loop = this.state();
          this.move(at, loop, null);
          this.move(this.node(node.node, loop), loop, null);
          return loop;
        }
        const end = this.state();
        for (let i = node.min; i < node.max; i++) {
          this.move(at, end, null);
          at = this.node(node.node, at);
        }
        this.move(at, end, null);
        return end;
      }
    }
  }

  /** The automaton from state 0 to `accept`, its empty moves replaced by the moves they lead to. */
  withoutEmptyMoves(accept: number): Automaton {
    const closures = this.moves.map((_, state) => this.closure(state));
    return pruned({
      moves: closures.map((closure) => [...closure].flatMap((state) => this.moves[state].filter((move): move is { set: CharSet; to: number } => move.set !== null))),
      accepting: closures.map((closure) => closure.has(accept)),
    });
  }

  private closure(state: number): Set<number> {
    const reached = new Set([state]);
    const pending = [state];
    while (pending.length) {
      for (const move of this.moves[pending.pop()!]) {
        if (move.set === null && !reached.has(move.to)) {
          reached.add(move.to);
          pending.push(move.to);
        }
      }
    }
    return reached;
  }
}
