import { expect, test } from "bun:test";
import { resampleTo16k } from "../src/resample";
import { AudioFormatError, decodeWav } from "../src/wav-decoder";

/** A WAV file with the given format holding `frames` frames of a 440 Hz tone on every channel. */
function wav(options: { format?: number; bits: number; channels: number; rate: number; frames: number }): Uint8Array {
  const { format = 1, bits, channels, rate, frames } = options;
  const bytesPerSample = bits / 8;
  const dataBytes = frames * channels * bytesPerSample;
  const view = new DataView(new ArrayBuffer(44 + dataBytes));
  const tag = (at: number, text: string) => [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  tag(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, format, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels * bytesPerSample, true);
  view.setUint16(32, channels * bytesPerSample, true);
  view.setUint16(34, bits, true);
  tag(36, "data");
  view.setUint32(40, dataBytes, true);
  for (let frame = 0; frame < frames; frame++) {
    const value = 0.5 * Math.sin((2 * Math.PI * 440 * frame) / rate);
    for (let channel = 0; channel < channels; channel++) {
      const at = 44 + (frame * channels + channel) * bytesPerSample;
      if (format === 3) view.setFloat32(at, value, true);
      else if (bits === 8) view.setUint8(at, Math.round(value * 127 + 128));
      else if (bits === 16) view.setInt16(at, Math.round(value * 32767), true);
      else if (bits === 24) {
        const int = Math.round(value * 8388607);
        view.setUint8(at, int & 0xff);
        view.setUint8(at + 1, (int >> 8) & 0xff);
        view.setInt8(at + 2, int >> 16);
      } else view.setInt32(at, Math.round(value * 2147483647), true);
    }
  }
  return new Uint8Array(view.buffer);
}

test("PCM of every common width and float WAV decode to the same mono signal", () => {
  for (const [format, bits] of [[1, 8], [1, 16], [1, 24], [1, 32], [3, 32]]) {
    const audio = decodeWav(wav({ format, bits, channels: 2, rate: 16000, frames: 1600 }));
    expect(audio.sampleRate).toBe(16000);
    expect(audio.samples.length).toBe(1600);
    const peak = Math.max(...audio.samples.map(Math.abs));
    expect(Math.abs(peak - 0.5)).toBeLessThan(0.02);
  }
});

test("44.1 kHz and 8 kHz audio is resampled to 16 kHz keeping its duration and level", () => {
  for (const rate of [44100, 22050, 8000]) {
    const samples = resampleTo16k(decodeWav(wav({ bits: 16, channels: 1, rate, frames: rate })));
    expect(Math.abs(samples.length - 16000)).toBeLessThanOrEqual(1);
    const rms = Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / samples.length);
    expect(Math.abs(rms - 0.5 / Math.SQRT2)).toBeLessThan(0.03);
  }
});

test("non-PCM or broken WAV files are refused with a reason", () => {
  expect(() => decodeWav(new TextEncoder().encode("not a wav at all"))).toThrow(AudioFormatError);
  expect(() => decodeWav(wav({ format: 85, bits: 16, channels: 1, rate: 16000, frames: 10 }))).toThrow("not PCM");
  expect(() => decodeWav(wav({ bits: 16, channels: 1, rate: 16000, frames: 10 }).slice(0, 36))).toThrow("no data chunk");
});

test("16-bit samples at an odd byte offset (a WAV inside a larger buffer) decode the same", () => {
  const bytes = wav({ bits: 16, channels: 2, rate: 16000, frames: 1600 });
  const padded = new Uint8Array(bytes.length + 1);
  padded.set(bytes, 1);
  expect(decodeWav(padded.subarray(1)).samples).toEqual(decodeWav(bytes).samples);
});
