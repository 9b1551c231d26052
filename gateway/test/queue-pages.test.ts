/**
 * The fair-share queue on a service's page (ui/ rendering, no app): who waits per key and tier,
 * what was refused, the card's own poll; a model nobody waited for; fair share off.
 */
import { expect, test } from "bun:test";
import { serviceQueueCard } from "@svc/ui";
import { queueReportOf } from "@svc/testing";

const waiting = queueReportOf(
  "acme/tiny",
  [
    { key: "<f>", tier: "priority", weight: 1, waiting: 1, oldestSeconds: 0.42 },
    { key: "eval", tier: "default", weight: 3, waiting: 32, oldestSeconds: 9.99 },
  ],
  { inFlight: 2, typicalWaitSeconds: 4.2, refused: { timeout: 1, full: 2 } },
);

test("a saturated model's card: who waits per key and tier (names escaped), the slots, the refusals, polled on its own", () => {
  const card = serviceQueueCard(waiting, "acme/tiny", "svc-1").value;
  expect(card).toContain('id="service-queue" hx-get="/services/svc-1/queue" hx-trigger="every 2s"');
  expect(card).toContain("<strong>33 waiting</strong> · 2 in flight of 2 at once · typical wait 4.2 s · refused 3 (1 after the time limit, 2 with the key's queue full)");
  expect(card).toContain("<tr><td>&lt;f&gt;</td><td>priority</td><td>1</td><td>1</td><td>0.4 s</td></tr>");
  expect(card).toContain("<tr><td>eval</td><td>default</td><td>3</td><td>32</td><td>10.0 s</td></tr>");
  expect(card).toContain("at most 60 s and 256 a key");
});

test("a model nobody waited for, and fair share off, say so", () => {
  expect(serviceQueueCard(waiting, "acme/other", "svc-2").value).toContain('<p id="queue-summary">No request has waited for acme/other.</p>');
  const off = serviceQueueCard({ ...waiting, fairShare: { ...waiting.fairShare, enabled: false } }, "acme/tiny", "svc-1").value;
  expect(off).toContain("Fair share is off (<code>SVC_FAIR_SHARE=false</code>)");
});
