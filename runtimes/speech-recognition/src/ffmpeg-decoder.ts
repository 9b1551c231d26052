import { WHISPER_SAMPLE_RATE } from "./resample";

let ffmpegPath: string | null | undefined;

/** The ffmpeg on PATH, looked up once; null when there is none. */
export function findFfmpeg(): string | null {
  if (ffmpegPath === undefined) ffmpegPath = Bun.which("ffmpeg");
  return ffmpegPath;
}

/**
 * Decodes any audio ffmpeg understands to 16 kHz mono float samples. The input goes in on stdin and
 * the arguments as an array: no shell, no file names on a command line.
 */
export async function decodeWithFfmpeg(ffmpeg: string, bytes: Uint8Array): Promise<Float32Array> {
  const child = Bun.spawn(
    [ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-i", "pipe:0", "-f", "f32le", "-ac", "1", "-ar", String(WHISPER_SAMPLE_RATE), "pipe:1"],
    { stdin: "pipe", stdout: "pipe", stderr: "pipe" },
  );
  // ffmpeg may stop reading early (undecodable input); a broken pipe then is expected.
  const feed = (async () => {
    try {
      child.stdin.write(bytes);
      await child.stdin.end();
    } catch {}
  })();
  const [output, errors, code] = await Promise.all([
    new Response(child.stdout).arrayBuffer(),
    new Response(child.stderr).text(),
    child.exited,
    feed,
  ]);
  if (code !== 0) throw new Error(errors.trim().split("\n").slice(-1)[0] || `ffmpeg exited with ${code}`);
  return new Float32Array(output, 0, Math.floor(output.byteLength / 4));
}
