import { Elysia, t } from "elysia";
import { decodeAudio } from "./audio-input";
import { transcribe, type TranscriptionDeps } from "./transcription";

const TranscriptionUpload = t.Object({
  file: t.File(),
  model: t.Optional(t.String()),
  response_format: t.Optional(t.Union([t.Literal("text"), t.Literal("json"), t.Literal("verbose_json")], { error: "response_format: must be json, text or verbose_json" })),
  language: t.Optional(t.String({ pattern: "^[a-z]{2,3}$" })),
  prompt: t.Optional(t.String()),
  temperature: t.Optional(t.Numeric({ minimum: 0, maximum: 1 })),
});

/** OpenAI's `POST /v1/audio/transcriptions` (multipart upload), answered in OpenAI's shapes. */
export function openAiTranscriptionsRoute(deps: TranscriptionDeps) {
  return new Elysia().post(
    "/v1/audio/transcriptions",
    async ({ body }) => {
      const name = body.file.name || "the uploaded file";
      const samples = await decodeAudio(new Uint8Array(await body.file.arrayBuffer()), name);
      const transcript = await transcribe(deps, samples, { language: body.language, prompt: body.prompt, temperature: body.temperature });
      switch (body.response_format ?? "json") {
        case "text":
          return new Response(`${transcript.text}\n`, { headers: { "content-type": "text/plain; charset=utf-8" } });
        case "json":
          return { text: transcript.text };
        default:
          return {
            task: "transcribe",
            language: transcript.language,
            duration: transcript.duration,
            text: transcript.text,
            segments: transcript.segments.map((segment, id) => ({ id, seek: 0, start: segment.start, end: segment.end, text: segment.text, tokens: [], temperature: body.temperature ?? 0 })),
          };
      }
    },
    { body: TranscriptionUpload },
  );
}
