import { invalidRequest } from "@svc/runtime-common";
import type { ChatCompletionRequest } from "./schemas";

/** What a content part other than text is, for the refusal. */
const PART_NAMES: Record<string, string> = {
  image_url: "an image part (image_url)",
  input_audio: "an audio part (input_audio)",
  file: "a file part (file)",
};

/**
 * Refuses a chat whose messages hold anything but text parts, naming the first such part
 * (`messages.0.content.1`): llama.cpp here has no vision or audio encoder, and an answer that
 * silently left the image out would look like the model's own.
 */
export function refuseNonTextParts(messages: ChatCompletionRequest["messages"]): void {
  messages.forEach((message, index) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, j) => {
      if (part.type === "text") return;
      const what = PART_NAMES[part.type] ?? `a part of type ${JSON.stringify(part.type)}`;
      const param = `messages.${index}.content.${j}`;
      throw invalidRequest(`${param}: ${what} is not supported: the CPU runtime (llama.cpp) serves text only; run this model on vLLM or SGLang (svc run --engine vllm on a GPU partition) to send it images.`, param, "unsupported_content");
    });
  });
}
