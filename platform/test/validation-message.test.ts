import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { RunRequest } from "@svc/contracts";
import { errorHandler } from "../src/http/error-handler";

/** A request that fails its schema is answered with sentences about the options the caller gave. */
describe("schema errors read as sentences", () => {
  const app = new Elysia().use(errorHandler).post("/run", () => ({ ok: true }), { body: RunRequest });
  const message = async (body: unknown) => {
    const response = await app.handle(new Request("http://localhost/run", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    expect(response.status).toBe(400);
    return ((await response.json()) as { message: string }).message;
  };

  test("each names the option as the CLI writes it, what is allowed, and the JSON path", async () => {
    expect(await message({ task: "text-generation", model: "a/b", engineArgs: ["x".repeat(5000)] })).toBe(
      "Engine argument 1 is too long (5000 characters): at most 4096 characters (engineArgs.0).",
    );
    expect(await message({ task: "text-generation", model: "a/b", job: { mem: 0 } })).toBe("--mem must be at least 1, not 0 (job.mem).");
    expect(await message({ task: "text-generation", model: "a/b", job: { gres: 1.5 } })).toBe("--gres must be a whole number, not 1.5 (job.gres).");
    expect(await message({ task: "text-generation", model: "a/b", apiKey: 5 })).toBe("--api-key must be text (apiKey).");
    expect(await message({ task: "text-generation" })).toBe("The model is required (model).");
    expect(await message({ task: "txt", model: "a/b" })).toBe(
      'The task must be one of text-generation, speech-recognition, text_generation, speech_recognition, not "txt" (task).',
    );
  });
});
