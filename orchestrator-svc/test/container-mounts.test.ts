/** `--mount` and `--grace-period` in a service's container: read-only binds at the path given, the grace period as a label, both in the dry-run line. */
import { expect, test } from "bun:test";
import type { LaunchSpec } from "../src/engines/engine";
import { containerConfig, dockerRunWords } from "../src/engines/docker/container-config";

const spec: LaunchSpec = {
  serviceId: "0b5e8c1a-7d4f-4c2e-9a61-3f0d2b7e9c10",
  name: "chat",
  task: "text-generation",
  image: "svc-text-generation:latest",
  args: [],
  modelDir: "/models/tiny",
  job: {},
  mounts: [
    { source: "/data/corpus", target: "/data/corpus" },
    { source: "/real/place", target: "/data/link to it" },
  ],
  gracePeriod: 45,
};

test("each mount is a read-only bind at the path given; the grace period is a label", () => {
  const config = containerConfig(spec, 9000, { network: "host", homeLabel: "h", user: "1000:1000" });
  expect(config.body.HostConfig.Mounts.slice(1)).toEqual([
    { Type: "bind", Source: "/data/corpus", Target: "/data/corpus", ReadOnly: true },
    { Type: "bind", Source: "/real/place", Target: "/data/link to it", ReadOnly: true },
  ]);
  expect(config.body.Labels["svc.grace-period"]).toBe("45");
  const words = dockerRunWords(config);
  expect(words).toContain("type=bind,source=/data/corpus,target=/data/corpus,readonly");
  expect(words).toContain("type=bind,source=/real/place,target=/data/link to it,readonly");
  expect(words).toContain("svc.grace-period=45");
});

test("without them, no extra mounts and no label", () => {
  const config = containerConfig({ ...spec, mounts: undefined, gracePeriod: undefined }, 9000, { network: "host", homeLabel: "h", user: "1000:1000" });
  expect(config.body.HostConfig.Mounts).toHaveLength(1);
  expect(config.body.Labels["svc.grace-period"]).toBeUndefined();
});
