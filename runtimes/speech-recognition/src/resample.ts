import type { Audio } from "./wav-decoder";

export const WHISPER_SAMPLE_RATE = 16000;

/**
 * Resamples to 16 kHz by linear interpolation, averaging over each output step when downsampling
 * (a box low-pass filter) so high frequencies do not fold back into the speech band.
 */
export function resampleTo16k(audio: Audio): Float32Array {
  if (audio.sampleRate === WHISPER_SAMPLE_RATE) return audio.samples;
  const ratio = audio.sampleRate / WHISPER_SAMPLE_RATE;
  const input = audio.samples;
  const output = new Float32Array(Math.max(0, Math.floor(input.length / ratio)));
  const at = (position: number) => {
    const index = Math.floor(position);
    const fraction = position - index;
    const a = input[Math.min(index, input.length - 1)];
    const b = input[Math.min(index + 1, input.length - 1)];
    return a + (b - a) * fraction;
  };
  for (let i = 0; i < output.length; i++) {
    if (ratio <= 1) {
      output[i] = at(i * ratio);
      continue;
    }
    const start = i * ratio;
    const taps = Math.ceil(ratio);
    let sum = 0;
    for (let tap = 0; tap < taps; tap++) sum += at(start + (tap * ratio) / taps);
    output[i] = sum / taps;
  }
  return output;
}
