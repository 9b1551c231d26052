import { Elysia, t } from "elysia";
import { decodeAudio } from "./audio-input";
import { resolveInputPath } from "./input-path";
import { verboseSegments } from "./openai-formats";
import { transcribe, type TranscriptionDeps } from "./transcription";

const TranscribeRequest = t.Object({
  audio_path: t.String({ minLength: 1 }),
  response_format: t.Optional(t.Union([t.Literal("text"), t.Literal("json"), t.Literal("verbose_json")], { error: "response_format: must be text, json or verbose_json" })),
  language: t.Optional(t.String({ pattern: "^[a-z]{2,3}$" })),
  prompt: t.Optional(t.String()),
  temperature: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
});

/**
 * `POST /transcribe {audio_path, response_format}` (spec §4.2): transcribes a file from the input
 * folder, named relative to it or by its absolute path on the service host. `text` gives segments null; `json` segments with start, end, text; `verbose_json` adds
 * the language, the duration and OpenAI's verbose segments (ids, tokens, avg_logprob, compression_ratio, no_speech_prob).
 */
export function transcribeRoute(deps: TranscriptionDeps) {
  return new Elysia().post(
    "/transcribe",
    async ({ body }) => {
      const path = resolveInputPath(deps.input, body.audio_path);
      const samples = await decodeAudio(new Uint8Array(await Bun.file(path).arrayBuffer()), body.audio_path);
      const transcript = await transcribe(deps, samples, { language: body.language, prompt: body.prompt, temperature: body.temperature });
      const format = body.response_format ?? "json";
      const base = { audio_path: body.audio_path, text: transcript.text, task: "transcribe" as const };
      if (format === "text") return { ...base, segments: null };
      if (format === "json") return { ...base, segments: transcript.segments.map(({ start, end, text }) => ({ start, end, text })) };
      return {
        ...base,
        language: transcript.language,
        duration: transcript.duration,
        segments: verboseSegments(transcript.segments, body.temperature ?? 0),
      };
    },
    { body: TranscribeRequest },
  );
}
