import { describe, expect, test } from "bun:test";
import { BaseChoiceError, buildSettings, chooseBase, REGISTRY_FREE_BASE, STANDARD_BASE, type BaseProbe } from "../lib/base-choice";

/** A machine as the choice sees it; records which images it was asked to pull. */
function machine(options: { present?: string[]; pullError?: string; debootstrapMissing?: string }) {
  const pulled: string[] = [];
  const probe: BaseProbe = {
    present: (tag) => (options.present ?? []).includes(tag),
    pull: (tag) => {
      pulled.push(tag);
      return options.pullError;
    },
    debootstrapMissing: () => options.debootstrapMissing,
  };
  return { probe, pulled };
}

const auto = buildSettings({});
const NO_REGISTRY = 'Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host';

describe("choosing how the runtime images are built", () => {
  test("the engine cannot pull the standard base: the registry-free debootstrap path, and the message says why", () => {
    const { probe, pulled } = machine({ pullError: NO_REGISTRY });
    const choice = chooseBase(probe, auto);
    expect(choice.path).toBe("debootstrap");
    expect(choice.base).toBe(REGISTRY_FREE_BASE);
    expect(choice.message).toBe(
      `The Docker Engine cannot pull ${STANDARD_BASE} (${NO_REGISTRY}): building the runtime images FROM ${REGISTRY_FREE_BASE}, ` +
        "the registry-free base made with debootstrap from this machine's apt mirror.",
    );
    expect(pulled).toEqual([STANDARD_BASE]);
  });

  test("the engine can pull it (Fedora, Ubuntu without root, Docker Desktop): the ordinary Dockerfile path", () => {
    const { probe, pulled } = machine({ debootstrapMissing: "root (debootstrap runs as root)" });
    expect(chooseBase(probe, auto)).toEqual({ path: "pull", base: STANDARD_BASE, message: `Building the runtime images FROM ${STANDARD_BASE} (pulled by the Docker Engine).` });
    expect(pulled).toEqual([STANDARD_BASE]);
  });

  test("a base already on the engine is used without pulling", () => {
    const standard = machine({ present: [STANDARD_BASE], pullError: NO_REGISTRY });
    expect(chooseBase(standard.probe, auto)).toMatchObject({ path: "pull", base: STANDARD_BASE, message: expect.stringContaining("already on this Docker Engine") });
    const local = machine({ present: [REGISTRY_FREE_BASE] });
    expect(chooseBase(local.probe, auto)).toMatchObject({ path: "debootstrap", message: expect.stringContaining(`${REGISTRY_FREE_BASE} is already on this Docker Engine`) });
    expect([...standard.pulled, ...local.pulled]).toEqual([]);
  });

  test("neither path possible: one error naming what each needs", () => {
    const { probe } = machine({ pullError: NO_REGISTRY, debootstrapMissing: "root (debootstrap runs as root)" });
    expect(() => chooseBase(probe, auto)).toThrow(BaseChoiceError);
    expect(() => chooseBase(probe, auto)).toThrow(`the Docker Engine to pull ${STANDARD_BASE}, and it cannot (${NO_REGISTRY}); the registry-free path needs root (debootstrap runs as root)`);
  });

  test("SVC_IMAGE_BUILD forces a path; SVC_IMAGE_BASE names the standard base; bad values are named", () => {
    const pullOnly = buildSettings({ SVC_IMAGE_BUILD: "pull", SVC_IMAGE_BASE: "mirror.example/debian:bookworm-slim" });
    expect(chooseBase(machine({ present: [REGISTRY_FREE_BASE] }).probe, pullOnly)).toMatchObject({ path: "pull", base: "mirror.example/debian:bookworm-slim" });
    expect(() => chooseBase(machine({ pullError: NO_REGISTRY }).probe, pullOnly)).toThrow("SVC_IMAGE_BUILD=pull, but the Docker Engine cannot pull mirror.example/debian:bookworm-slim");
    const debootstrap = buildSettings({ SVC_IMAGE_BUILD: "debootstrap" });
    const { probe, pulled } = machine({ present: [STANDARD_BASE] });
    expect(chooseBase(probe, debootstrap).path).toBe("debootstrap");
    expect(pulled).toEqual([]);
    expect(() => chooseBase(machine({ debootstrapMissing: "apt-get" }).probe, debootstrap)).toThrow("the registry-free path needs apt-get");
    expect(() => buildSettings({ SVC_IMAGE_BUILD: "podman" })).toThrow('SVC_IMAGE_BUILD="podman" is not a build path: use auto, pull, debootstrap.');
  });
});
