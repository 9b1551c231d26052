import { expect, test } from "bun:test";
import { failureDigest } from "./failure-digest";

const output = `bun test v1.4.5 (a7733435c)

tests/app/example.test.ts:
(pass) on Docker > starts [12.00ms]
61 |   const light = streamLoad(appUrl, 1);
62 |   const one = await waitForReplicas(client, name, {}, ms.down);
63 |   expect(one.name).toBe(\`\${name}-1\`);
                      ^
error: expect(received).toBe(expected)

Expected: "grow-1"
Received: "grow-2"

      at growAndShrink (/work/main/tests/app/example.test.ts:63:78)
(fail) on Docker > shrinks [27354.86ms]
(pass) on Docker > refuses bad input [3.00ms]
error: connect ECONNREFUSED 127.0.0.1:9
(fail) on Slurm > grows [1.00ms]

 2 pass
 2 fail
Ran 4 tests across 1 file. [29.14s]
`;

test("each failed test with its error, without bun's source listing or the passing tests' output", () => {
  expect(failureDigest(output)).toEqual([
    [
      "(fail) on Docker > shrinks [27354.86ms]",
      "    error: expect(received).toBe(expected)",
      '    Expected: "grow-1"',
      '    Received: "grow-2"',
      "    at growAndShrink (/work/main/tests/app/example.test.ts:63:78)",
    ].join("\n"),
    ["(fail) on Slurm > grows [1.00ms]", "    error: connect ECONNREFUSED 127.0.0.1:9"].join("\n"),
  ]);
});

test("output without a (fail) line (a crash, a file stopped, pytest) gives its last lines", () => {
  const crashed = `${Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n")}\n\ntests/app/x.test.ts ran past 20 minutes and was stopped.\n`;
  expect(failureDigest(crashed)).toEqual([[...Array.from({ length: 11 }, (_, i) => `line ${i + 9}`), "tests/app/x.test.ts ran past 20 minutes and was stopped."].join("\n")]);
  expect(failureDigest("")).toEqual([]);
});
