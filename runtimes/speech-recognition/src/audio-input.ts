import { OpenAiError } from "@svc/runtime-common";
import { decodeWithFfmpeg, findFfmpeg } from "./ffmpeg-decoder";
import { resampleTo16k } from "./resample";
import { AudioFormatError, decodeWav, isWav } from "./wav-decoder";

const unsupported = (message: string) => new OpenAiError(415, message, "invalid_request_error", "unsupported_audio_format");

/**
 * Turns an uploaded or named audio file into 16 kHz mono samples: WAV PCM is decoded here, any
 * other format through ffmpeg when it is installed; otherwise the answer is a 415 saying so.
 */
export async function decodeAudio(bytes: Uint8Array, name: string): Promise<Float32Array> {
  if (bytes.length === 0) throw new OpenAiError(400, `${name} is empty.`, "invalid_request_error", "empty_audio");
  let reason: string;
  if (isWav(bytes)) {
    try {
      return resampleTo16k(decodeWav(bytes));
    } catch (error) {
      if (!(error instanceof AudioFormatError)) throw error;
      reason = `${name} is a WAV file this service cannot decode itself (${error.message})`;
    }
  } else {
    reason = `${name} is not a WAV file`;
  }
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) throw unsupported(`${reason}, and ffmpeg is not installed here to decode other formats. Send WAV (PCM) audio.`);
  try {
    return await decodeWithFfmpeg(ffmpeg, bytes);
  } catch (error) {
    throw unsupported(`${name} could not be decoded as audio: ${(error as Error).message}`);
  }
}
