import { expect, test } from "bun:test";
import { CPU_TEXT_GENERATION_OPTIONS as TABLE, describeEngineOptions, parseEngineArgs } from "../src/engine-options";

test("long names, aliases and --name=value are read by the table's value types", () => {
  const parsed = parseEngineArgs(["--ctx-size", "512", "-t", "2", "--batch-size=64", "-np", "3", "--mlock", "--flash-attn", "off", "-ngl", "all", "--seed", "0"], TABLE);
  expect(parsed).toEqual({
    values: { "--ctx-size": 512, "--threads": 2, "--batch-size": 64, "--parallel": 3, "--mlock": true, "--flash-attn": "off", "--n-gpu-layers": "all", "--seed": 0 },
    unknown: [],
    problems: [],
  });
});

test("unknown options are set apart with the value that follows them", () => {
  const parsed = parseEngineArgs(["--bogus-flag", "1", "--ctx-size", "512", "--other", "stray"], TABLE);
  expect(parsed.unknown).toEqual(["--bogus-flag", "1", "--other", "stray"]);
  expect(parsed.values).toEqual({ "--ctx-size": 512 });
});

test("wrong values are problems that say what to give", () => {
  const { problems } = parseEngineArgs(["--threads", "many", "--parallel", "0", "--flash-attn", "maybe", "--mlock=yes", "--ctx-size"], TABLE);
  expect(problems).toEqual([
    '--threads "many": use a whole number from 1 to 1024.',
    '--parallel "0": use a whole number from 1 to 64.',
    '--flash-attn "maybe": use one of on, off, auto.',
    "--mlock is a flag and takes no value.",
    "--ctx-size needs a value.",
  ]);
  expect(parseEngineArgs(["--seed", "-1"], TABLE).problems).toEqual(['--seed "-1": use a whole number from 0 to 4294967295.']);
});

test("the description lists every option with its aliases", () => {
  const lines = describeEngineOptions(TABLE);
  expect(lines).toHaveLength(TABLE.length);
  expect(lines[0]).toStartWith("--ctx-size, -c N  ");
  expect(lines.find((line) => line.startsWith("--n-gpu-layers"))).toContain("-ngl, --gpu-layers N|auto|all");
});
