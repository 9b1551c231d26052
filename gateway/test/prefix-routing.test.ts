/**
 * Prefix routing, alone: the prompt prefix of each endpoint's body, the ring's spread and
 * stability when a replica comes or goes, its load bound, and the chooser's use of them (draining
 * replicas left out, counts for /metrics).
 */
import { describe, expect, test } from "bun:test";
import type { ServiceRoute } from "@svc/contracts";
import { loadBound, PrefixRing } from "../src/openai/prefix-ring";
import { PREFIX_CHARS, promptPrefix } from "../src/openai/prompt-prefix";
import { ReplicaChooser } from "../src/openai/replica-choice";
import { standInRoute } from "./stand-in-route";

const KEYS = Array.from({ length: 3000 }, (_, i) => `system prompt number ${i}: you are a helpful assistant`);
const idle = () => 0;

describe("promptPrefix", () => {
  test("chat messages in order, Responses instructions then input, completions prompt: the first 2,048 characters", () => {
    const system = "s".repeat(3000);
    const chat = promptPrefix({ messages: [{ role: "system", content: system }, { role: "user", content: "hi" }] })!;
    expect(chat).toHaveLength(PREFIX_CHARS);
    expect(chat.startsWith("system: sss")).toBe(true);
    expect(promptPrefix({ messages: [{ role: "system", content: "be brief" }, { role: "user", content: [{ type: "text", text: "one" }, { type: "text", text: "two" }] }] })).toBe("system: be brief\nuser: onetwo");
    expect(promptPrefix({ instructions: "be brief", input: "hello" })).toBe("system: be brief\nuser: hello");
    expect(promptPrefix({ input: [{ role: "user", content: "hello" }] })).toBe("user: hello");
    expect(promptPrefix({ prompt: "Once upon" })).toBe("Once upon");
    expect(promptPrefix({ prompt: ["a", "b"] })).toBe("a\nb");
    // Requests that differ only after the first 2,048 characters share their prefix.
    expect(promptPrefix({ prompt: system + "x" })).toBe(promptPrefix({ prompt: system + "y" })!);
    expect(promptPrefix({ input: ["not", "messages"], model: "m" })).toBe("not\nmessages");
    for (const none of [{ input: 3 }, { model: "m" }, undefined]) expect(promptPrefix(none as never)).toBeUndefined();
  });
});

describe("PrefixRing", () => {
  test("keys spread over the replicas: each gets its share within 25%", () => {
    const ring = new PrefixRing();
    const ids = ["r1", "r2", "r3"];
    const share = new Map<string, number>();
    for (const key of KEYS) {
      const { id } = ring.pick(key, ids, idle)!;
      share.set(id, (share.get(id) ?? 0) + 1);
    }
    for (const id of ids) expect(Math.abs(share.get(id)! - KEYS.length / 3)).toBeLessThan((KEYS.length / 3) * 0.25);
  });

  test("the same key goes to the same replica whatever the order of the list", () => {
    const ring = new PrefixRing();
    for (const key of KEYS.slice(0, 200)) expect(ring.pick(key, ["r1", "r2", "r3"], idle)!.id).toBe(new PrefixRing().pick(key, ["r3", "r1", "r2"], idle)!.id);
  });

  test("adding a fourth replica moves about 1/4 of the keys, all to it; removing one moves only its own", () => {
    const ring = new PrefixRing();
    const three = KEYS.map((key) => ring.pick(key, ["r1", "r2", "r3"], idle)!.id);
    const four = KEYS.map((key) => ring.pick(key, ["r1", "r2", "r3", "r4"], idle)!.id);
    const moved = KEYS.filter((_, i) => three[i] !== four[i]).length;
    expect(KEYS.every((_, i) => three[i] === four[i] || four[i] === "r4")).toBe(true);
    expect(moved / KEYS.length).toBeGreaterThan(0.15);
    expect(moved / KEYS.length).toBeLessThan(0.35);
    const two = KEYS.map((key) => ring.pick(key, ["r1", "r3"], idle)!.id);
    expect(KEYS.every((_, i) => three[i] === "r2" || three[i] === two[i])).toBe(true);
  });

  test("a key's own replica busy at the bound passes it on to the next; the bound holds under skewed load", () => {
    const ring = new PrefixRing();
    const ids = ["r1", "r2", "r3"];
    const load = new Map(ids.map((id) => [id, 0]));
    const owner = ring.pick(KEYS[0], ids, idle)!.id;
    // Every request has the same prefix: the worst skew. Each stays in flight.
    const decisions: boolean[] = [];
    for (let i = 0; i < 60; i++) {
      const total = [...load.values()].reduce((a, b) => a + b, 0);
      const { id, overflow } = ring.pick(KEYS[0], ids, (r) => load.get(r)!)!;
      expect(load.get(id)!).toBeLessThan(loadBound(total, ids.length));
      expect(overflow).toBe(id !== owner);
      decisions.push(overflow);
      load.set(id, load.get(id)! + 1);
    }
    // The owner took its share and more, the others the rest; nobody above 1.25 × the average + 1.
    expect(load.get(owner)!).toBeGreaterThanOrEqual(20);
    for (const id of ids) expect(load.get(id)!).toBeLessThanOrEqual(Math.ceil(1.25 * (60 / 3)) + 1);
    expect(decisions.filter((overflow) => !overflow).length).toBe(load.get(owner)!);
    expect(loadBound(0, 3)).toBe(1);
    expect(loadBound(11, 3)).toBe(5);
  });
});

const replica = (id: string, routing: "prefix" | "least-busy", draining = false, deployment = "chat"): ServiceRoute =>
  standInRoute({ id, name: `${deployment}-${id}`, url: `http://127.0.0.1:1/${id}`, deployment: { id: `dep-${deployment}`, name: deployment, routing, draining } });

describe("ReplicaChooser", () => {
  test("prefix routing sends one prefix to one replica and counts the decisions per deployment and replica", () => {
    const chooser = new ReplicaChooser();
    const replicas = ["1", "2", "3"].map((id) => replica(id, "prefix"));
    const firsts = KEYS.slice(0, 4).map((key) => chooser.choose("owner/m", replicas, () => key)!.id);
    for (let i = 0; i < 5; i++) KEYS.slice(0, 4).forEach((key, k) => expect(chooser.choose("owner/m", replicas, () => key)!.id).toBe(firsts[k]));
    expect([...chooser.decisions.values()]).toEqual([{ deployment: "chat", decision: "prefix", count: 24 }]);
    expect([...chooser.routed.values()].reduce((sum, seen) => sum + seen.count, 0)).toBe(24);
  });

  test("least-busy deployments, and requests without a prompt, take the least busy; draining replicas only when nothing else can", () => {
    const chooser = new ReplicaChooser();
    const done = chooser.balancer.begin("1");
    const replicas = [replica("1", "least-busy"), replica("2", "least-busy", true), replica("3", "least-busy")];
    expect(chooser.choose("owner/m", replicas, () => "same prompt")!.id).toBe("3");
    const prefixed = replicas.map((r) => replica(r.id, "prefix", r.deployment!.draining));
    expect(chooser.choose("owner/m", prefixed, () => undefined)!.id).toBe("3");
    for (const key of KEYS.slice(0, 50)) expect(chooser.choose("owner/m", prefixed, () => key)!.id).not.toBe("2");
    expect(chooser.choose("owner/m", [replica("2", "prefix", true)], () => "any")!.id).toBe("2");
    done();
    expect([...chooser.decisions.values()].find((seen) => seen.decision === "least_busy")!.count).toBe(2);
  });
});
