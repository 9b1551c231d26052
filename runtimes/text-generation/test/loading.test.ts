/** Before the engine is attached the app answers /health and inference routes with 503. */
import { expect, test } from "bun:test";
import { createTextGenerationApp } from "../src/app";

test("health is 503 and /v1 routes refuse while the model loads", async () => {
  const { app } = createTextGenerationApp({ modelName: "/models/x", apiKey: "k" });
  const health = await app.handle(new Request("http://runtime/health"));
  expect(health.status).toBe(503);
  expect(await health.json()).toEqual({ status: "loading", message: expect.any(String) });

  const chat = await app.handle(
    new Request("http://runtime/v1/chat/completions", {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    }),
  );
  expect(chat.status).toBe(503);
  expect((await chat.json()).error.code).toBe("model_loading");
  // The key is still checked first.
  expect((await app.handle(new Request("http://runtime/v1/models"))).status).toBe(401);
});
