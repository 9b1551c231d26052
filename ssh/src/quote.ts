import { shellQuote } from "@svc/platform/shell";

export { shellQuote };

/**
 * A path on a remote host as one shell word. `~` and `~/…` mean the remote user's home (as the
 * shell would expand them), the rest of the path stays quoted.
 */
export function remotePathWord(path: string): string {
  if (path === "~") return `"$HOME"`;
  if (path.startsWith("~/")) return `"$HOME"/${shellQuote(path.slice(2))}`;
  return shellQuote(path);
}

/**
 * One command line that runs `script` with sh whatever the login shell (bash, csh…) and leaves
 * standard input to the script: for `send`, whose input is the data. The script travels base64-encoded.
 */
export function shCommand(script: string): string {
  return `sh -c 'eval "$(echo ${Buffer.from(script).toString("base64")} | base64 -d)"'`;
}
