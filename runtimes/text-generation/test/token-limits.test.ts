import { expect, test } from "bun:test";
import { OpenAiError } from "@svc/runtime-common";
import { completionBudget } from "../src/token-limits";

const params = { prompt: "messages", maxTokens: "max_completion_tokens" };

test("without a cap, the budget is the room left", () => {
  expect(completionBudget(10, undefined, { contextSize: 100 }, params)).toBe(90);
  expect(completionBudget(10, undefined, { contextSize: 100, maxTotalTokens: 50 }, params)).toBe(40);
  expect(completionBudget(10, 5, { contextSize: 100, maxTotalTokens: 50 }, params)).toBe(5);
});

test("requests over a limit are 400 context_length_exceeded errors naming the limit", () => {
  const refuse = (run: () => unknown, text: string, param: string) => {
    try {
      run();
      throw new Error("not refused");
    } catch (error) {
      expect(error).toBeInstanceOf(OpenAiError);
      expect((error as OpenAiError).status).toBe(400);
      expect((error as OpenAiError).code).toBe("context_length_exceeded");
      expect((error as OpenAiError).param).toBe(param);
      expect((error as OpenAiError).message).toContain(text);
    }
  };
  refuse(() => completionBudget(11, 1, { contextSize: 100, maxInputLength: 10 }, params), "--max-input-length", "messages");
  refuse(() => completionBudget(10, 41, { contextSize: 100, maxTotalTokens: 50 }, params), "--max-total-tokens", "max_completion_tokens");
  refuse(() => completionBudget(50, undefined, { contextSize: 100, maxTotalTokens: 50 }, params), "--max-total-tokens", "messages");
  refuse(() => completionBudget(10, 95, { contextSize: 100 }, params), "context", "max_completion_tokens");
});
