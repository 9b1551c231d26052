import type { Refusal } from "./refusals";

/**
 * Checks the `input_image` parts of a Responses request, whatever engine answers it: an image is
 * sent by `image_url` (a data: URL or an http(s) URL, passed on as it is). A `file_id` names an
 * OpenAI file, and svc keeps no image files (its /v1/files holds batch files): refused naming the
 * part, as is an image part with no URL.
 */
export function refuseImageParts(input: unknown): Array<[string, string]> {
  if (!Array.isArray(input)) return [];
  const found: Array<[string, string]> = [];
  input.forEach((item: { content?: unknown }, i) => {
    if (!Array.isArray(item?.content)) return;
    item.content.forEach((part: { type?: unknown; image_url?: unknown; file_id?: unknown }, j) => {
      if (part?.type !== "input_image") return;
      const at = `input[${i}].content[${j}]`;
      if (part.file_id !== undefined && part.file_id !== null) found.push([`${at}.file_id`, "svc keeps no image files: send the image as image_url, a data: URL (data:image/png;base64,…) or an http(s) URL"]);
      else if (typeof part.image_url !== "string" || part.image_url === "") found.push([`${at}.image_url`, "an input_image needs its image_url: a data: URL (data:image/png;base64,…) or an http(s) URL"]);
    });
  });
  return found;
}
