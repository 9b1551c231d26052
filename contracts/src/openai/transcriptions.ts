import { Type } from "@sinclair/typebox";
import { nullable } from "./common";

/** `TranscriptTextUsageDuration`: usage of a model billed by audio length. */
const DurationUsage = Type.Object({ type: Type.Literal("duration"), seconds: Type.Number() });

/** `CreateTranscriptionResponseJson` (`response_format: json`). */
export const TranscriptionJson = Type.Object({
  text: Type.String(),
  usage: Type.Optional(DurationUsage),
});

/**
 * `TranscriptionSegment`. The document requires `avg_logprob` and `no_speech_prob` as numbers;
 * the whisper.cpp binding svc runs reports neither, and svc sends null rather than an invented
 * number (the README's compatibility table says so). This schema admits exactly that null and
 * nothing else in their place.
 */
export const TranscriptionSegment = Type.Object({
  id: Type.Integer(),
  seek: Type.Integer(),
  start: Type.Number(),
  end: Type.Number(),
  text: Type.String(),
  tokens: Type.Array(Type.Integer()),
  temperature: Type.Number(),
  avg_logprob: nullable(Type.Number()),
  compression_ratio: Type.Number(),
  no_speech_prob: nullable(Type.Number()),
});

/** `CreateTranscriptionResponseVerboseJson` (`response_format: verbose_json`). */
export const TranscriptionVerboseJson = Type.Object({
  task: Type.Optional(Type.Literal("transcribe")),
  language: Type.String(),
  duration: Type.Number(),
  text: Type.String(),
  segments: Type.Optional(Type.Array(TranscriptionSegment)),
  words: Type.Optional(Type.Array(Type.Object({ word: Type.String(), start: Type.Number(), end: Type.Number() }))),
  usage: Type.Optional(DurationUsage),
});
