import { Elysia, t } from "elysia";
import { invalidRequest } from "@svc/runtime-common";
import { decodeAudio } from "./audio-input";
import { foldArrayFields } from "./form-array-fields";
import { refuseFieldsNotHonoured, TRANSCRIPTION_ARRAY_FIELDS } from "./transcription-fields";
import { durationUsage, toSrt, toVtt, verboseSegments } from "./openai-formats";
import { transcribe, type TranscriptionDeps } from "./transcription";

const TranscriptionUpload = t.Object({
  file: t.File(),
  model: t.Optional(t.String()),
  response_format: t.Optional(
    t.Union([t.Literal("json"), t.Literal("text"), t.Literal("srt"), t.Literal("verbose_json"), t.Literal("vtt")], {
      error: "response_format: must be one of json, text, srt, verbose_json, vtt",
    }),
  ),
  language: t.Optional(t.String({ pattern: "^[a-z]{2,3}$" })),
  prompt: t.Optional(t.String()),
  temperature: t.Optional(t.Numeric({ minimum: 0, maximum: 1 })),
  timestamp_granularities: t.Optional(t.Array(t.String())),
});

/** OpenAI's rules for `timestamp_granularities`: verbose_json only; svc has segment timestamps, not word ones. */
function checkGranularities(body: { response_format?: string; timestamp_granularities?: string[] }): void {
  const granularities = body.timestamp_granularities;
  if (!granularities) return;
  const unknown = granularities.find((granularity) => granularity !== "segment" && granularity !== "word");
  if (unknown !== undefined) throw invalidRequest(`timestamp_granularities: "${unknown}" is not one of segment, word`, "timestamp_granularities");
  if ((body.response_format ?? "json") !== "verbose_json") throw invalidRequest("timestamp_granularities: needs response_format verbose_json", "timestamp_granularities");
  if (granularities.includes("word")) throw invalidRequest("timestamp_granularities: word timestamps are not given here (whisper.cpp's segments only); ask for segment", "timestamp_granularities");
}

const plain = (text: string, type: string) => new Response(text, { headers: { "content-type": `${type}; charset=utf-8` } });

/** OpenAI's `POST /v1/audio/transcriptions` (multipart upload), answered in OpenAI's shapes. */
export function openAiTranscriptionsRoute(deps: TranscriptionDeps) {
  return new Elysia().post(
    "/v1/audio/transcriptions",
    async ({ body }) => {
      checkGranularities(body);
      const name = body.file.name || "the uploaded file";
      const samples = await decodeAudio(new Uint8Array(await body.file.arrayBuffer()), name);
      const temperature = body.temperature ?? 0;
      const transcript = await transcribe(deps, samples, { language: body.language, prompt: body.prompt, temperature });
      switch (body.response_format ?? "json") {
        case "text":
          return plain(`${transcript.text}\n`, "text/plain");
        case "srt":
          return plain(toSrt(transcript), "text/plain");
        case "vtt":
          return plain(toVtt(transcript), "text/plain");
        case "json":
          return { text: transcript.text, usage: durationUsage(transcript) };
        default:
          return {
            task: "transcribe",
            language: transcript.language,
            duration: transcript.duration,
            text: transcript.text,
            segments: verboseSegments(transcript.segments, temperature),
            usage: durationUsage(transcript),
          };
      }
    },
    {
      body: TranscriptionUpload,
      transform: ({ body }) => {
        foldArrayFields(body, TRANSCRIPTION_ARRAY_FIELDS);
        refuseFieldsNotHonoured(body as Record<string, unknown>);
      },
    },
  );
}
