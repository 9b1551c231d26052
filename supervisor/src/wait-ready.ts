/** Polls the gateway's public health route until every component answers, or gives up. */
export async function waitReady(baseUrl: string, timeoutMs: number, stillTrying: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillTrying()) {
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  return false;
}
