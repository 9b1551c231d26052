/** The URL in `svc start`'s "svc is ready at URL" line (with the port the gateway got when asked for port 0). */
export function readyUrl(output: string): string {
  const url = /svc is ready at (http:\/\/\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`svc start printed no ready line with a URL; output:\n${output}`);
  return url;
}
