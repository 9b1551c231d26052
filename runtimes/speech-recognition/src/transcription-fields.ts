import { invalidRequest } from "@svc/runtime-common";

/** The form fields of OpenAI's transcription request that svc answers as asked. */
const TAKEN = new Set(["file", "model", "response_format", "language", "prompt", "temperature", "timestamp_granularities"]);

/**
 * Fields of OpenAI's request that whisper.cpp cannot honour, and what to do instead: refused rather
 * than dropped, so a client never takes a plain answer for the one it asked for.
 */
const NOT_HONOURED: Record<string, (value: unknown) => string | undefined> = {
  include: () => "include: whisper.cpp gives no logprobs of the transcript; leave include out",
  stream: (value) => (value === "false" || value === false ? undefined : "stream: transcriptions are answered whole here, not streamed; leave stream out or false"),
  chunking_strategy: (value) => (value === "auto" ? undefined : 'chunking_strategy: whisper.cpp cuts the audio itself; leave chunking_strategy out or "auto"'),
  known_speaker_names: () => "known_speaker_names: speakers are not told apart here (no diarization); leave it out",
  known_speaker_references: () => "known_speaker_references: speakers are not told apart here (no diarization); leave it out",
};

/** Form fields that hold a list: `name[]` from OpenAI's clients, `name` from curl (see form-array-fields.ts). */
export const TRANSCRIPTION_ARRAY_FIELDS = ["timestamp_granularities", "include", "known_speaker_names", "known_speaker_references"];

/**
 * A 400 for a field svc cannot honour or does not know (OpenAI's "Unrecognized request argument"),
 * naming it; a field whose value asks for what svc does anyway (`stream=false`, `chunking_strategy=auto`)
 * is taken off the body.
 */
export function refuseFieldsNotHonoured(body: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(body)) {
    if (TAKEN.has(name)) continue;
    const why = NOT_HONOURED[name];
    if (!why) throw invalidRequest(`Unrecognized request argument supplied: ${name}`, name);
    const refusal = why(value);
    if (refusal) throw invalidRequest(refusal, name);
    delete body[name];
  }
}
