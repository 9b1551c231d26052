import { deflateSync } from "node:zlib";
import type { Segment, Transcript } from "./whisper-engine";

/**
 * A transcript in the `response_format`s of OpenAI's `/v1/audio/transcriptions`, with the engine's
 * own numbers: each segment's tokens, their mean log probability and the no-speech probability come
 * from whisper.cpp (whisper-native.ts); see the compatibility table in docs/endpoints.md.
 */

/** How well the text compresses, as OpenAI's Whisper measures it: UTF-8 bytes over zlib-compressed bytes. */
export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, "utf8");
  return bytes.length === 0 ? 0 : bytes.length / deflateSync(bytes).length;
}

/** `TranscriptionSegment`s; `seek` is the segment's start in 10-ms frames (whisper.cpp does not report its decoding window). */
export function verboseSegments(segments: Segment[], temperature: number) {
  return segments.map((segment, id) => ({
    id,
    seek: Math.round(segment.start * 100),
    start: segment.start,
    end: segment.end,
    text: segment.text,
    tokens: segment.tokens,
    temperature,
    avg_logprob: segment.avgLogprob,
    compression_ratio: compressionRatio(segment.text),
    no_speech_prob: segment.noSpeechProb,
  }));
}

export const durationUsage = (transcript: Transcript) => ({ type: "duration" as const, seconds: transcript.duration });

/** `HH:MM:SS<separator>mmm`. */
function timestamp(seconds: number, separator: "," | "."): string {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

const cueText = (segment: Segment) => segment.text.trim().replace(/\n{2,}/g, "\n");
const spoken = (segments: Segment[]) => segments.filter((segment) => segment.text.trim() !== "");

/** SubRip: numbered cues, `,` before the milliseconds. */
export function toSrt(transcript: Transcript): string {
  return spoken(transcript.segments)
    .map((segment, i) => `${i + 1}\n${timestamp(segment.start, ",")} --> ${timestamp(segment.end, ",")}\n${cueText(segment)}\n`)
    .join("\n");
}

/** WebVTT: the header line, then cues with `.` before the milliseconds. */
export function toVtt(transcript: Transcript): string {
  const cues = spoken(transcript.segments).map((segment) => `${timestamp(segment.start, ".")} --> ${timestamp(segment.end, ".")}\n${cueText(segment)}\n`);
  return ["WEBVTT\n", ...cues].join("\n");
}
