/** Debian's nginx (nginx-light, installed for the bench only) as a reverse proxy in front of `backends`: one worker, like the gateway's one process. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@svc/testing";
import { aptInstall, until } from "./measure";
import { listenerPids } from "./processes";

export interface NginxOptions {
  /** Connections the worker may hold (each proxied request takes two). */
  connections?: number;
  /** Streams pass through as they come (SSE), and the least-busy backend gets the next request. */
  streaming?: boolean;
}

export async function startNginx(backendPorts: number[], options: NginxOptions = {}) {
  aptInstall("nginx", ["nginx-light"]);
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-nginx-"));
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
  const port = await freePort();
  const connections = options.connections ?? 1024;
  const servers = backendPorts.map((backend) => `server 127.0.0.1:${backend};`).join(" ");
  const streaming = options.streaming ? "proxy_buffering off; proxy_read_timeout 600s;" : "";
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;
worker_rlimit_nofile ${connections * 2 + 64};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections ${connections}; }
http {
  access_log ${dir}/access.log;
  # nginx closes a client's connection after its 1,000th request by default; a client that had just taken it for the next one got ECONNRESET (the gateway sets no such limit).
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream service { ${options.streaming ? "least_conn; " : ""}${servers} keepalive 32; }
  server {
    listen 127.0.0.1:${port} backlog=4096;
    location / { proxy_pass http://service; proxy_http_version 1.1; proxy_set_header Connection ""; ${streaming} }
  }
}
`,
  );
  const proc = Bun.spawn(["nginx", "-p", dir, "-c", join(dir, "nginx.conf")], { stdout: "ignore", stderr: "ignore" });
  await until(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 10_000, 20);
  return {
    url: `http://127.0.0.1:${port}`,
    pids: () => listenerPids(port),
    async stop() {
      proc.kill("SIGQUIT");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
