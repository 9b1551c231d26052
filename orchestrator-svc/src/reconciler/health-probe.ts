/** Whether the inference server at host:port answers its health check (200) within `timeoutMs`. */
export async function probeHealth(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  const address = host.includes(":") ? `[${host}]` : host;
  try {
    const response = await fetch(`http://${address}:${port}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
