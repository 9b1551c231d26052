/**
 * The images a whole-suite run builds once before its files start (tests/setup/test-images.ts),
 * handed to every file's process in the environment, so that no two files build the same image at
 * once and none spends seconds hashing a tree the run already hashed. A file run alone finds no
 * such variable and builds what it needs itself.
 */
export const PREBUILT_IMAGES_VARIABLE = "SVC_TEST_PREBUILT_IMAGES";

export interface PrebuiltImages {
  "text-generation": string;
  "speech-recognition": string;
  "slurm-test": string;
  "fake-runtime": string;
}

export function prebuiltImage(name: keyof PrebuiltImages): string | undefined {
  const text = process.env[PREBUILT_IMAGES_VARIABLE];
  return text ? (JSON.parse(text) as Partial<PrebuiltImages>)[name] : undefined;
}
