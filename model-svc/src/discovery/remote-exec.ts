import type { SshSession } from "@svc/ssh";

const OUTPUT_LIMIT = 512 * 1024 * 1024;

/**
 * Runs a POSIX sh script on the remote host in one round trip: `sh -s` (whatever the login shell),
 * the script on its standard input, standard output collected as bytes (no 1 MiB cap).
 */
export function runRemoteScript(session: SshSession, script: string, timeoutMs = 300_000): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    session.client.exec("sh -s", (error, stream) => {
      if (error) return reject(new Error(`Could not run a command on ${session.target.alias}: ${error.message}`));
      const chunks: Buffer[] = [];
      let size = 0;
      let stderr = "";
      const timer = setTimeout(() => {
        stream.close();
        reject(new Error(`The model scan on ${session.target.alias} did not finish within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= OUTPUT_LIMIT) chunks.push(chunk);
      });
      stream.stderr.on("data", (chunk: Buffer) => {
        if (stderr.length < 64 * 1024) stderr += chunk.toString("utf8");
      });
      stream.on("close", (code: number | null) => {
        clearTimeout(timer);
        if (size > OUTPUT_LIMIT) return reject(new Error(`The model scan on ${session.target.alias} printed more than ${OUTPUT_LIMIT} bytes.`));
        resolve({ code, stdout: Buffer.concat(chunks), stderr });
      });
      stream.end(script);
    });
  });
}
