/**
 * The launch preview's `docker run` line, one option per line (with `\` continuations, so it can
 * still be pasted into a shell): the Docker options, the image, then the server's options. A script
 * that already has several lines (a Slurm job script) is shown as it is.
 */

/** `docker run` options that take no value. */
const DOCKER_FLAGS = new Set(["--detach", "-d", "--init", "--read-only", "--rm", "--interactive", "-i", "--tty", "-t", "--privileged"]);

/** Shell words as written (quotes kept), split on unquoted blanks. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: "'" | '"' | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      word += c;
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
    } else if (c === " " || c === "\t") {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      started = true;
      word += c;
      if (c === "'" || c === '"') quote = c;
      else if (c === "\\" && i + 1 < line.length) word += line[++i];
    }
  }
  if (started) words.push(word);
  return words;
}

export function onePerLine(script: string): string {
  const trimmed = script.trim();
  if (trimmed.includes("\n") || !trimmed.startsWith("docker run ")) return script;
  const words = shellWords(trimmed);
  const lines = ["docker run"];
  let i = 2;
  // Docker's options, each with its value, up to the image.
  while (i < words.length && words[i].startsWith("-")) {
    const option = words[i];
    if (DOCKER_FLAGS.has(option) || option.includes("=") || i + 1 >= words.length) {
      lines.push(option);
      i += 1;
    } else {
      lines.push(`${option} ${words[i + 1]}`);
      i += 2;
    }
  }
  // The image (and any words before the server's first option), then each server option with its values.
  let current = words.slice(i).length ? [] as string[] : undefined;
  for (; i < words.length; i++) {
    if (words[i].startsWith("-") && current && current.length > 0) {
      lines.push(current.join(" "));
      current = [];
    }
    current?.push(words[i]);
  }
  if (current && current.length > 0) lines.push(current.join(" "));
  return lines.join(" \\\n  ");
}
