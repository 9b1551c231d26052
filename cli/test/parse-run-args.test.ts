import { describe, expect, test } from "bun:test";
import type { RunRequest } from "@svc/contracts";
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

  test("--adapter is repeatable and kept in order; speech-recognition has none", () => {
    expect(parse(["text-generation", "acme/base", "--adapter", "acme/lora-a", "--adapter=acme/lora-b", "--top-k", "5"])).toMatchObject({
      request: { adapters: ["acme/lora-a", "acme/lora-b"], engineArgs: ["--top-k", "5"] },
    });
    expect(() => parse(["speech-recognition", "acme/ears", "--adapter", "acme/lora"])).toThrow("--adapter");
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
    expect(() => parse(["--bogus", "text-generation", "m/x"])).toThrow("unknown option --bogus. Run 'svc run --help' for svc's options; engine arguments go after 'text-generation MODEL'.");
    expect(() => parse(["text-generation", "--top-k", "5", "m/x"])).toThrow("unknown option --top-k");
    expect(() => parse(["text-generation", "m/x", "--dry-run=yes"])).toThrow("--dry-run is a flag");
  });

  test("one rule for every svc option: it may stand before or after the task and the model", () => {
    const options = ["--name", "chat", "--mount", "/data/a", "--grace-period", "60", "--image", "reg.example/llama:1", "--account", "proj", "--max-total-tokens", "64"];
    const expected: RunRequest = {
      task: "text-generation",
      model: "acme/tiny",
      name: "chat",
      mounts: ["/data/a"],
      gracePeriod: 60,
      image: "reg.example/llama:1",
      job: { account: "proj" },
      textGeneration: { maxTotalTokens: 64 },
    };
    expect(parse([...options, "text-generation", "acme/tiny"])).toEqual({ help: false, json: false, request: expected });
    expect(parse(["text-generation", ...options, "acme/tiny"])).toEqual({ help: false, json: false, request: expected });
    expect(parse(["text-generation", "acme/tiny", ...options])).toEqual({ help: false, json: false, request: expected });
    expect(parse(["--input-dir", "/in", "speech-recognition", "acme/ears"])).toMatchObject({ request: { speechRecognition: { inputDir: "/in" } } });
  });

  test("the new job options, and --mount (-m) repeated", () => {
    const parsed = parse(["text-generation", "acme/tiny", "--qos", "high", "--reservation=r1", "--exclude", "node[1-3]", "--nodelist", "n4", "-m", "/a", "--mount=/b"]);
    expect(parsed).toMatchObject({ request: { job: { qos: "high", reservation: "r1", exclude: "node[1-3]", nodelist: "n4" }, mounts: ["/a", "/b"] } });
    expect(() => parse(["text-generation", "acme/tiny", "--grace-period", "soon"])).toThrow('--grace-period "soon": use a whole number of at least 0');
  });

  test("an option of the other task is refused, naming the task it belongs to", () => {
    expect(() => parse(["--input-dir", "/in", "text-generation", "acme/tiny"])).toThrow("--input-dir is a speech-recognition option; text-generation does not take it.");
    expect(() => parse(["speech-recognition", "acme/ears", "--max-total-tokens", "5"])).toThrow("--max-total-tokens is a text-generation option; speech-recognition does not take it.");
  });
});

test("--engine picks vllm or sglang (a misspelt one is a usage error naming the nearest); --nodes is a job option", () => {
  const parsed = parseRunArgs(["--nodes", "2", "--gres", "4", "text-generation", "acme/big", "--engine", "sglang", "--mem-fraction-static", "0.8"]);
  expect(parsed.help).toBe(false);
  if (parsed.help) return;
  expect(parsed.request).toMatchObject({ engine: "sglang", job: { nodes: 2, gres: 4 }, engineArgs: ["--mem-fraction-static", "0.8"] });
  expect(() => parseRunArgs(["text-generation", "acme/big", "--engine", "sglng"])).toThrow('--engine "sglng": use one of vllm, sglang. Did you mean sglang?');
});
