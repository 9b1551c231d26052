import { expect, test } from "bun:test";
import { checkBearer } from "../src/bearer-auth";

const request = (authorization?: string) => new Request("http://x/v1/models", { headers: authorization ? { authorization } : {} });

test("no configured key lets everything through", () => {
  expect(checkBearer(request(), undefined)).toBeUndefined();
});

test("the right key passes; a wrong, partial or missing one is a 401 OpenAI error", async () => {
  expect(checkBearer(request("Bearer s3cret"), "s3cret")).toBeUndefined();
  expect(checkBearer(request("bearer s3cret"), "s3cret")).toBeUndefined();
  for (const header of [undefined, "Bearer s3cre", "Bearer s3cret2", "Basic s3cret", "s3cret"]) {
    const response = checkBearer(request(header), "s3cret")!;
    expect(response.status).toBe(401);
    expect((await response.json()).error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key" });
  }
});
