import { describe, expect, test } from "bun:test";
import { parseRunArgs } from "../src/commands/run/parse-run-args";

const parse = (line: string[]) => parseRunArgs(line);

describe("svc run arguments", () => {
  test("job options before the task, container and task options after the model", () => {
    expect(parse(["--time", "01:00:00", "--mem=8", "--gres", "0", "-p", "local", "text-generation", "acme/tiny", "-n", "chat", "--revision", "abc1234", "--max-total-tokens", "256", "--dry-run", "--api-key", "k"])).toEqual({
      help: false,
      json: false,
      request: {
        task: "text-generation",
        model: "acme/tiny",
        profile: "local",
        job: { time: "01:00:00", mem: 8, gres: 0 },
        name: "chat",
        revision: "abc1234",
        textGeneration: { maxTotalTokens: 256 },
        dryRun: true,
        apiKey: "k",
      },
    });
  });

  test("unknown arguments after a text-generation model go to the engine verbatim, in order", () => {
    const parsed = parse(["text-generation", "acme/tiny", "--top-k", "5", "--flag", "--name", "x", "--", "--name", "$(id)"]);
    expect(parsed).toMatchObject({ request: { name: "x", engineArgs: ["--top-k", "5", "--flag", "--name", "$(id)"] } });
  });

  test("speech-recognition takes --input-dir and refuses unknown options", () => {
    expect(parse(["speech-recognition", "acme/ears", "--input-dir", "/data/in"])).toMatchObject({ request: { speechRecognition: { inputDir: "/data/in" } } });
    expect(() => parse(["speech-recognition", "acme/ears", "--top-k", "5"])).toThrow("unknown option --top-k for speech-recognition");
  });

  test("help, and usage errors that say what to fix", () => {
    expect(parse(["--help"])).toEqual({ help: true, task: undefined });
    expect(parse(["text-generation", "--help"])).toEqual({ help: true, task: "text-generation" });
    expect(() => parse([])).toThrow("missing the task");
    expect(() => parse(["text-generation"])).toThrow("missing the model");
    expect(() => parse(["translation", "m/x"])).toThrow("unknown task 'translation'");
    expect(() => parse(["--mem", "lots", "text-generation", "m/x"])).toThrow("--mem \"lots\": use a whole number of at least 1");
    expect(() => parse(["--gres", "-1", "text-generation", "m/x"])).toThrow(`--gres "-1": use a whole number of at least 0`);
    expect(() => parse(["text-generation", "m/x", "--name"])).toThrow("--name needs a value");
    expect(() => parse(["--bogus", "text-generation", "m/x"])).toThrow("unknown job option --bogus");
    expect(() => parse(["text-generation", "--top-k", "5", "m/x"])).toThrow("unknown option --top-k");
    expect(() => parse(["text-generation", "m/x", "--dry-run=yes"])).toThrow("--dry-run is a flag");
  });
});
