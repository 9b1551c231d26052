/** Which network the Docker engine runs services on: published ports where the Engine has a bridge network, host networking otherwise. */
import { expect, test } from "bun:test";
import { DockerError, type DockerApi } from "../src/engines/docker/docker-api";
import { containerConfig, dockerRunWords } from "../src/engines/docker/container-config";
import { NetworkMode } from "../src/engines/docker/network-mode";

function engineAnswering(status: number | "down") {
  let asked = 0;
  const api = {
    async raw(_method: string, path: string) {
      asked++;
      expect(path).toBe("/networks/bridge");
      if (status === "down") throw new DockerError(503, "Docker Engine does not answer");
      if (status !== 200) throw new DockerError(status, "network bridge not found");
      return new Response("{}");
    },
  } as unknown as DockerApi;
  return { api, asked: () => asked };
}

test("published ports when the Engine has a bridge network, host networking when it has none; asked once", async () => {
  const bridge = engineAnswering(200);
  const withBridge = new NetworkMode(bridge.api, undefined);
  expect(await withBridge.get()).toBe("publish");
  expect(await withBridge.get()).toBe("publish");
  expect(bridge.asked()).toBe(1);
  expect(await new NetworkMode(engineAnswering(404).api, undefined).get()).toBe("host");
});

test("SVC_DOCKER_NETWORK decides without asking; an Engine that does not answer is asked again later", async () => {
  const none = engineAnswering(404);
  expect(await new NetworkMode(none.api, NetworkMode.fromSetting("publish")).get()).toBe("publish");
  expect(none.asked()).toBe(0);
  expect(NetworkMode.fromSetting("bogus")).toBeUndefined();
  const down = new NetworkMode(engineAnswering("down").api, undefined);
  expect(await down.known()).toBeNull();
  await expect(down.get()).rejects.toThrow("does not answer");
});

test("a published service listens on all of its own container's addresses, its port published on 127.0.0.1 only", () => {
  const spec = { serviceId: crypto.randomUUID(), name: "n", task: "text-generation" as const, image: "svc-text-generation:latest", args: [], modelDir: "/m", job: {} };
  const config = containerConfig(spec, 41234, { network: "publish", homeLabel: "h", user: "10001:10001" });
  expect(config.body.HostConfig.NetworkMode).toBe("default");
  expect(config.body.Cmd.slice(0, 6)).toEqual(["--model", "/m", "--host", "0.0.0.0", "--port", "8000"]);
  expect(config.body.HostConfig.PortBindings).toEqual({ "8000/tcp": [{ HostIp: "127.0.0.1", HostPort: "41234" }] });
  expect(dockerRunWords(config).join(" ")).toContain("--publish 127.0.0.1:41234:8000");
});

test("vLLM takes the key from its environment, set from the mounted file by a shell, never from an argument", () => {
  const spec = { serviceId: crypto.randomUUID(), name: "n", task: "text-generation" as const, image: "vllm/vllm-openai:latest", args: ["--served-model-name", "m"], apiKey: "sk-x", modelDir: "/m", job: {} };
  const config = containerConfig(spec, 41234, { network: "host", homeLabel: "h", user: "10001:10001" }, "/keys/id");
  expect(JSON.stringify(config)).not.toContain("sk-x");
  expect(config.body.Entrypoint?.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
  expect(config.body.Entrypoint?.[2]).toContain('VLLM_API_KEY="$(cat /run/secrets/svc-api-key)"');
  expect(config.body.Cmd).not.toContain("--api-key-file");
  expect(config.body.HostConfig.Mounts).toContainEqual({ Type: "bind", Source: "/keys/id", Target: "/run/secrets/svc-api-key", ReadOnly: true });
  const words = dockerRunWords(config);
  expect(words.slice(words.indexOf("--entrypoint"), words.indexOf("--entrypoint") + 4)).toEqual(["--entrypoint", "/bin/sh", "vllm/vllm-openai:latest", "-c"]);
});

test("vLLM started with LoRA adapters may load more while it runs: VLLM_ALLOW_RUNTIME_LORA_UPDATING in its environment; without adapters, not", () => {
  const spec = (args: string[]) => ({ serviceId: crypto.randomUUID(), name: "n", task: "text-generation" as const, image: "vllm/vllm-openai:latest", args, modelDir: "/m", job: {} });
  const options = { network: "host" as const, homeLabel: "h", user: "10001:10001" };
  const withLora = containerConfig(spec(["--enable-lora", "--lora-modules", "acme/a=/models/a"]), 41234, options);
  expect(withLora.body.Env).toContain("VLLM_ALLOW_RUNTIME_LORA_UPDATING=True");
  expect(dockerRunWords(withLora).join(" ")).toContain("--env VLLM_ALLOW_RUNTIME_LORA_UPDATING=True");
  expect(containerConfig(spec(["--served-model-name", "m"]), 41234, options).body.Env.some((variable) => variable.startsWith("VLLM_ALLOW_RUNTIME_LORA_UPDATING"))).toBe(false);
});
