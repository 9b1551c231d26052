import type { DockerApi } from "./docker-api";
import { demultiplex } from "./log-frames";

/**
 * Runs `python3 -c <line>` in a throwaway container of a local `image` (no network, removed
 * afterwards) and returns what it printed on stdout and its exit code: how svc reads the package
 * metadata of an image that says its version nowhere else.
 */
export async function runPythonInImage(api: DockerApi, image: string, line: string, timeoutMs = 60_000): Promise<{ code: number; stdout: string }> {
  const created = await api.json<{ Id: string }>("POST", "/containers/create", {
    Image: image,
    Entrypoint: ["python3"],
    Cmd: ["-c", line],
    Labels: { "svc.probe": "engine-version" },
    HostConfig: { NetworkMode: "none", AutoRemove: false },
  });
  const id = created.Id;
  try {
    await api.raw("POST", `/containers/${id}/start`);
    const waited = api.json<{ StatusCode: number }>("POST", `/containers/${id}/wait`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`python3 in ${image} did not end within ${timeoutMs / 1000} s`)), timeoutMs)));
    const { StatusCode } = await Promise.race([waited, late]).finally(() => clearTimeout(timer));
    const logs = await api.raw("GET", `/containers/${id}/logs?stdout=1&stderr=0`);
    const stdout = logs.body ? await new Response(demultiplex(logs.body)).text() : "";
    return { code: StatusCode, stdout };
  } finally {
    await api.raw("DELETE", `/containers/${id}?force=1`).catch(() => undefined);
  }
}
