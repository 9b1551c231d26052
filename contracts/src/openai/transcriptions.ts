import { deflateSync } from "node:zlib";
import { Type, type Static } from "@sinclair/typebox";
import { inDocument } from "./check";

/** `TranscriptTextUsageDuration`: usage of a model billed by audio length. */
const DurationUsage = Type.Object({ type: Type.Literal("duration"), seconds: Type.Number() });

/** `CreateTranscriptionResponseJson` (`response_format: json`). */
export const TranscriptionJson = inDocument("CreateTranscriptionResponseJson", Type.Object({
  text: Type.String(),
  usage: Type.Optional(DurationUsage),
}));

/** `TranscriptionSegment`: every field required, `avg_logprob` and `no_speech_prob` numbers. */
export const TranscriptionSegment = inDocument("TranscriptionSegment", Type.Object({
  id: Type.Integer(),
  seek: Type.Integer(),
  start: Type.Number(),
  end: Type.Number(),
  text: Type.String(),
  tokens: Type.Array(Type.Integer()),
  temperature: Type.Number(),
  avg_logprob: Type.Number(),
  compression_ratio: Type.Number(),
  no_speech_prob: Type.Number(),
}));

/** `CreateTranscriptionResponseVerboseJson` (`response_format: verbose_json`). */
export const TranscriptionVerboseJson = inDocument("CreateTranscriptionResponseVerboseJson", Type.Object({
  task: Type.Optional(Type.Literal("transcribe")),
  language: Type.String(),
  duration: Type.Number(),
  text: Type.String(),
  segments: Type.Optional(Type.Array(TranscriptionSegment)),
  words: Type.Optional(Type.Array(Type.Object({ word: Type.String(), start: Type.Number(), end: Type.Number() }))),
  usage: Type.Optional(DurationUsage),
}));

/**
 * What is implausible in a verbose segment's numbers (nothing when they are what Whisper's names
 * mean): `avg_logprob` a finite log probability (<= 0), `no_speech_prob` a probability, tokens
 * present, and `compression_ratio` the text's UTF-8 bytes over its zlib-compressed bytes, recomputed.
 */
export function segmentNumberProblems(segment: Static<typeof TranscriptionSegment>): string[] {
  const problems: string[] = [];
  if (!Number.isFinite(segment.avg_logprob) || segment.avg_logprob > 0) problems.push(`avg_logprob ${segment.avg_logprob} is no log probability (finite, <= 0)`);
  if (!(segment.no_speech_prob >= 0 && segment.no_speech_prob <= 1)) problems.push(`no_speech_prob ${segment.no_speech_prob} is no probability`);
  if (segment.tokens.length === 0) problems.push("no tokens");
  const bytes = Buffer.from(segment.text, "utf8");
  const ratio = bytes.length === 0 ? 0 : bytes.length / deflateSync(bytes).length;
  if (Math.abs(segment.compression_ratio - ratio) > 1e-9) problems.push(`compression_ratio ${segment.compression_ratio} is not the text's (${ratio})`);
  return problems;
}
