/** Test inputs for the speech runtime: a spoken WAV from espeak-ng, a non-audio file, escape bait. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const API_KEY = "speech-key-0123456789";

export interface SpeechFixtures {
  /** The folder given as --input-dir. */
  inputDir: string;
  /** A file outside it. */
  outsideFile: string;
}

export function makeSpeechFixtures(): SpeechFixtures {
  const base = mkdtempSync(join(tmpdir(), "svc-sr-test-"));
  const inputDir = join(base, "input");
  mkdirSync(join(inputDir, "nested"), { recursive: true });
  const spoken = Bun.spawnSync(["espeak-ng", "-v", "en", "-w", join(inputDir, "nested", "hello.wav"), "hello world, this is a tiny speech test"], { stderr: "pipe" });
  if (spoken.exitCode !== 0) throw new Error(`espeak-ng failed (apt-get install espeak-ng): ${spoken.stderr.toString()}`);
  writeFileSync(join(inputDir, "notes.txt"), "These are notes, not audio.\n");
  const outsideFile = join(base, "secret.wav");
  writeFileSync(outsideFile, "outside the input folder");
  symlinkSync(outsideFile, join(inputDir, "link-out.wav"));
  return { inputDir, outsideFile };
}
