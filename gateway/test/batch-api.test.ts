/** The Batch API's checks without a running app: batch input files, OpenAI's statuses from svc's, and how results split into output and error files. */
import { describe, expect, test } from "bun:test";
import { BatchFileError, checkBatchFile, endpointProblem, MAX_BATCH_LINES } from "../src/batch-api/batch-file";
import { endStatus, liveStatus } from "../src/batch-api/batch-status";
import { splitResults } from "../src/batch-api/split-results";

const line = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id: id, method: "POST", url: "/v1/chat/completions", body: { model: "m", messages: [{ role: "user", content: "hi" }] }, ...extra });
const problem = (text: string) => {
  try {
    checkBatchFile(text);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(BatchFileError);
    return (error as Error).message;
  }
};

describe("batch input files", () => {
  test("a valid file: its requests, model and endpoints; blank lines are skipped", () => {
    const text = [line("a"), "", line("b", { url: "/v1/completions", body: { model: "m", prompt: "x" } }), ""].join("\n");
    expect(checkBatchFile(text)).toEqual({ lines: 2, model: "m", urls: ["/v1/chat/completions", "/v1/completions"] });
  });

  test("each wrong line is named with what to fix", () => {
    expect(problem(`${line("a")}\nnot json`)).toBe("line 2: not JSON: each line is one request object.");
    expect(problem(`${line("a")}\n${line("a")}`)).toContain('line 2: custom_id "a" is used by an earlier line');
    expect(problem(line("", {}))).toBe("line 1: custom_id: give a non-empty string.");
    expect(problem(line("a", { method: "GET" }))).toBe('line 1: method "GET": use "POST".');
    expect(problem(line("a", { url: "/v1/responses" }))).toContain('line 1: url "/v1/responses": use one of /v1/chat/completions');
    expect(problem(line("a", { body: [] }))).toBe("line 1: body: give the request's JSON object.");
    expect(problem(line("a", { body: { messages: [] } }))).toBe("line 1: body.model: name the model.");
    expect(problem(`${line("a")}\n\n${line("b", { body: { model: "other" } })}`)).toContain('line 3: body.model "other": every line of a batch must name the same model');
    expect(problem("\n\n")).toContain("holds no requests");
    expect(problem("[1]")).toContain("line 1: give a JSON object");
  });

  test(`at most ${MAX_BATCH_LINES} requests`, () => {
    const many = Array.from({ length: MAX_BATCH_LINES + 1 }, (_, i) => line(`r${i}`)).join("\n");
    expect(problem(many)).toBe(`line ${MAX_BATCH_LINES + 1}: a batch file holds at most ${MAX_BATCH_LINES} requests.`);
  });

  test("a batch runs one endpoint: a file with another is refused naming it", () => {
    expect(endpointProblem(["/v1/chat/completions"], "/v1/chat/completions")).toBeUndefined();
    expect(endpointProblem(["/v1/chat/completions", "/v1/embeddings"], "/v1/chat/completions")).toContain("/v1/embeddings");
  });
});

describe("OpenAI's status from the svc batch job's", () => {
  test("live jobs", () => {
    expect(liveStatus("SUBMITTED", false)).toBe("validating");
    expect(liveStatus("PENDING", false)).toBe("in_progress");
    expect(liveStatus("RUNNING", false)).toBe("in_progress");
    expect(liveStatus("RUNNING", true)).toBe("cancelling");
    expect(liveStatus("STOPPING", false)).toBe("cancelling");
    expect(liveStatus("COMPLETED", false)).toBe("finalizing");
  });

  test("ended jobs", () => {
    expect(endStatus("COMPLETED")).toBe("completed");
    expect(endStatus("STOPPED")).toBe("cancelled");
    expect(endStatus("FAILED")).toBe("failed");
  });
});

test("results split as OpenAI's: successes to the output file, failures to the error file, a cut line dropped; usage of each success", () => {
  const ok = JSON.stringify({ id: "r1", custom_id: "a", response: { status_code: 200, request_id: "q", body: { usage: { prompt_tokens: 3, completion_tokens: 5 } } }, error: null });
  const refused = JSON.stringify({ id: "r2", custom_id: "b", response: { status_code: 400, request_id: "q", body: { error: { message: "no" } } }, error: null });
  const invalid = JSON.stringify({ id: "r3", custom_id: "line-3", response: null, error: { code: "invalid_request", message: "bad" } });
  const split = splitResults(`${ok}\n${refused}\n${invalid}\n{"id": "cut`);
  expect(split.output).toBe(`${ok}\n`);
  expect(split.errors).toBe(`${refused}\n${invalid}\n`);
  expect(split.lines).toEqual([
    { customId: "a", ok: true, status: 200, usage: { promptTokens: 3, completionTokens: 5 } },
    { customId: "b", ok: false, status: 400, usage: null },
    { customId: "line-3", ok: false, status: 400, usage: null },
  ]);
});
