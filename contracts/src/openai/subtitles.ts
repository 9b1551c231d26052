/**
 * The plain-text transcription formats (`response_format` `srt` and `vtt`), which OpenAI's document
 * leaves untyped: SubRip and WebVTT cue lists. Each function lists what is wrong with `text`
 * (nothing when it is well formed) and the cues it read.
 */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

const seconds = (h: string, m: string, s: string, ms: string) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;

function readCues(blocks: string[], timing: RegExp, numbered: boolean, problems: string[]): Cue[] {
  const cues: Cue[] = [];
  blocks.forEach((block, i) => {
    const lines = block.split("\n");
    if (numbered) {
      const number = lines.shift();
      if (number !== String(i + 1)) problems.push(`cue ${i + 1}: expected the counter line "${i + 1}", got ${JSON.stringify(number)}`);
    }
    const match = lines.shift()?.match(timing);
    if (!match) return void problems.push(`cue ${i + 1}: missing or malformed timing line`);
    const start = seconds(match[1], match[2], match[3], match[4]);
    const end = seconds(match[5], match[6], match[7], match[8]);
    if (end < start) problems.push(`cue ${i + 1}: ends before it starts`);
    if (lines.length === 0) problems.push(`cue ${i + 1}: no text`);
    cues.push({ start, end, text: lines.join("\n") });
  });
  return cues;
}

const blocksOf = (body: string) => body.split(/\n\n+/).map((block) => block.replace(/\n+$/, "")).filter((block) => block.trim() !== "");

export function srtProblems(text: string): { problems: string[]; cues: Cue[] } {
  const problems: string[] = [];
  if (text.includes("\r")) problems.push("line ends must be \\n");
  const timing = /^(\d{2,}):(\d{2}):(\d{2}),(\d{3}) --> (\d{2,}):(\d{2}):(\d{2}),(\d{3})$/;
  return { problems, cues: readCues(blocksOf(text), timing, true, problems) };
}

export function vttProblems(text: string): { problems: string[]; cues: Cue[] } {
  const problems: string[] = [];
  if (!/^WEBVTT(\n|$)/.test(text)) problems.push('a WebVTT file starts with the line "WEBVTT"');
  const timing = /^(\d{2,}):(\d{2}):(\d{2})\.(\d{3}) --> (\d{2,}):(\d{2}):(\d{2})\.(\d{3})$/;
  const [, ...blocks] = blocksOf(text.replace(/^WEBVTT[^\n]*/, "WEBVTT"));
  return { problems, cues: readCues(blocks, timing, false, problems) };
}
