/**
 * The label a test file's containers carry: the whole-suite runner names each file's process in
 * SVC_TEST_FILE and, when it has to stop a file that ran past its bound, removes the containers of
 * that file (a Slurm test cluster left running goes on working through its jobs and slows every
 * file after it).
 */
export const TEST_FILE_VARIABLE = "SVC_TEST_FILE";
export const TEST_FILE_LABEL = "svc.test-file";

/** The label for this process's containers; none when no runner named the file. */
export function testFileLabels(): Record<string, string> {
  const file = process.env[TEST_FILE_VARIABLE];
  return file ? { [TEST_FILE_LABEL]: file } : {};
}
