import type { Interface } from "node:readline";
import { UsageError } from "./errors";

/** Asks the user questions; only in a real terminal. Without one every question fails with what to pass instead. */
export interface Prompter {
  /** Whether questions can be asked (stdin is a terminal). */
  readonly interactive: boolean;
  /** A line of text; empty input takes `default`. `flag` names the option that answers it without a prompt. */
  text(question: string, options: { flag: string; default?: string; validate?: (answer: string) => string | undefined }): Promise<string>;
  /** One of `choices`; empty input takes `default`. */
  choice<T extends string>(question: string, choices: readonly T[], options: { flag: string; default?: T }): Promise<T>;
  /** y/n; empty input is no. */
  confirm(question: string, options: { flag: string }): Promise<boolean>;
  close(): void;
}

/** Extra context the CLI gives commands that may ask questions. */
export interface PromptingContext {
  prompter(): Prompter;
}

export class NoTerminalError extends UsageError {
  override name = "NoTerminalError";
}

function noTerminal(question: string, flag: string): NoTerminalError {
  return new NoTerminalError(`"${question}" needs an answer, but there is no terminal to ask in: pass ${flag}.`);
}

/**
 * Questions on stderr (so stdout stays clean for --json), answers from stdin. Lines typed ahead of
 * a question are kept for it. Ctrl-C or end of input cancels with a usage error.
 */
export function terminalPrompter(
  input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Prompter {
  const interactive = Boolean(input.isTTY);
  let rl: Interface | undefined;
  const lines: string[] = [];
  const waiting: Array<(line: string | null) => void> = [];
  let ended = false;

  const open = () => {
    if (rl) return;
    // Loaded on the first question only: node:readline costs every command's start a few ms.
    const { createInterface } = require("node:readline") as typeof import("node:readline");
    rl = createInterface({ input, output, terminal: interactive });
    rl.on("line", (line) => {
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    });
    rl.on("close", () => {
      ended = true;
      for (const next of waiting.splice(0)) next(null);
    });
    rl.on("SIGINT", () => rl?.close());
  };

  const ask = async (question: string, flag: string): Promise<string> => {
    if (!interactive) throw noTerminal(question, flag);
    open();
    output.write(question);
    const line = lines.length > 0 ? lines.shift()! : ended ? null : await new Promise<string | null>((resolve) => waiting.push(resolve));
    if (line === null) throw new UsageError(`cancelled: no answer to "${question.trim()}".`);
    return line.trim();
  };

  const prompter: Prompter = {
    interactive,
    async text(question, { flag, default: fallback, validate }) {
      for (;;) {
        const answer = (await ask(`${question}${fallback ? ` [${fallback}]` : ""}: `, flag)) || fallback || "";
        const problem = answer === "" ? "an answer is required" : validate?.(answer);
        if (!problem) return answer;
        output.write(`  ${problem}\n`);
      }
    },
    async choice(question, choices, { flag, default: fallback }) {
      for (;;) {
        const answer = (await ask(`${question} (${choices.join("/")})${fallback ? ` [${fallback}]` : ""}: `, flag)) || fallback || "";
        const chosen = choices.find((choice) => choice === answer.toLowerCase());
        if (chosen) return chosen;
        output.write(`  answer one of: ${choices.join(", ")}\n`);
      }
    },
    async confirm(question, { flag }) {
      const answer = (await ask(`${question} [y/N]: `, flag)).toLowerCase();
      return answer === "y" || answer === "yes";
    },
    close() {
      rl?.close();
      if (input === process.stdin) process.stdin.pause();
    },
  };
  return prompter;
}
