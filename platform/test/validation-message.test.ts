import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { RunRequest, UpdateKeyRequest } from "@svc/contracts";
import { errorHandler } from "../src/http/error-handler";

/** A request that fails its schema is answered with sentences about the options the caller gave, and the JSON paths beside them. */
describe("schema errors read as sentences", () => {
  const app = new Elysia().use(errorHandler).post("/run", () => ({ ok: true }), { body: RunRequest });
  const answer = async (body: unknown) => {
    const response = await app.handle(new Request("http://localhost/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    expect(response.status).toBe(400);
    return (await response.json()) as { error: string; message: string; details?: { field: string; fields?: string[] } };
  };
  const message = async (body: unknown) => (await answer(body)).message;

  test("each names the option as the CLI writes it and what is allowed, without the JSON path", async () => {
    expect(await message({ task: "text-generation", model: "a/b", engineArgs: ["--chat-template=" + "x".repeat(4984)] })).toBe(
      'Engine argument 1 ("--chat-template=xxxxxxxx…") is too long (5000 characters): at most 4096 characters.',
    );
    expect(await message({ task: "text-generation", model: "a/b", job: { mem: 0 } })).toBe("--mem must be at least 1, not 0.");
    expect(await message({ task: "text-generation", model: "a/b", job: { gres: 1.5 } })).toBe("--gres must be a whole number, not 1.5.");
    expect(await message({ task: "text-generation", model: "a/b", apiKey: 5 })).toBe("--api-key must be text.");
    expect(await message({ task: "text-generation" })).toBe("The model is required.");
    expect(await message({ task: "txt", model: "a/b" })).toBe('The task must be one of text-generation, speech-recognition, text_generation, speech_recognition, not "txt".');
  });

  test("the JSON path of each value is in details: field, and fields when there are several", async () => {
    expect(await answer({ task: "text-generation", model: "a/b", engineArgs: ["--x", "y".repeat(5000)] })).toEqual({
      error: "invalid_request",
      message: 'Engine argument 2 ("yyyyyyyyyyyyyyyyyyyyyyyy…") is too long (5000 characters): at most 4096 characters.',
      details: { field: "engineArgs.1" },
    });
    const both = await answer({ task: "text-generation", model: "a/b", job: { mem: 0, gres: 1.5 } });
    expect(both.message).toBe("--mem must be at least 1, not 0. --gres must be a whole number, not 1.5.");
    expect(both.details).toEqual({ field: "job.mem", fields: ["job.mem", "job.gres"] });
  });
});

test("a value that may also be null is said against what it must be otherwise", async () => {
  const app = new Elysia().use(errorHandler).patch("/keys", () => ({ ok: true }), { body: UpdateKeyRequest });
  const message = async (body: unknown) => {
    const response = await app.handle(new Request("http://localhost/keys", { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    expect(response.status).toBe(400);
    return ((await response.json()) as { message: string }).message;
  };
  expect(await message({ requestsPerMinute: -1 })).toBe("--requests-per-minute must be at least 1, not -1.");
  expect(await message({ tokensPerMinute: 2.5 })).toBe("--tokens-per-minute must be a whole number, not 2.5.");
  expect(await message({ maxParallel: "4" })).toBe("--max-parallel must be a whole number.");
});
