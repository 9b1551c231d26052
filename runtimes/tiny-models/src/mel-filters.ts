/**
 * The Slaney-style mel filterbank Whisper uses (librosa's `filters.mel` defaults), stored in the
 * ggml model file: `melCount` rows of `fftSize / 2 + 1` weights.
 */
export function melFilterbank(sampleRate = 16000, fftSize = 400, melCount = 80): Float32Array {
  const bins = fftSize / 2 + 1;
  const hzToMel = (hz: number) => (hz < 1000 ? (3 * hz) / 200 : 15 + (27 * Math.log(hz / 1000)) / Math.log(6.4));
  const melToHz = (mel: number) => (mel < 15 ? (200 * mel) / 3 : 1000 * Math.exp((Math.log(6.4) / 27) * (mel - 15)));

  const maxMel = hzToMel(sampleRate / 2);
  const edges = Array.from({ length: melCount + 2 }, (_, i) => melToHz((maxMel * i) / (melCount + 1)));
  const bandHz = Array.from({ length: bins }, (_, i) => (i * sampleRate) / fftSize);

  const weights = new Float32Array(melCount * bins);
  for (let m = 0; m < melCount; m++) {
    const [low, centre, high] = [edges[m], edges[m + 1], edges[m + 2]];
    const norm = 2 / (high - low);
    for (let b = 0; b < bins; b++) {
      const rising = (bandHz[b] - low) / (centre - low);
      const falling = (high - bandHz[b]) / (high - centre);
      weights[m * bins + b] = Math.max(0, Math.min(rising, falling)) * norm;
    }
  }
  return weights;
}
