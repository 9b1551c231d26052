/**
 * Plain values about models, without their typebox schemas (adapters.ts has those), so that what
 * needs only these (`svc model ls` at start-up) does not load typebox.
 */

/** model: served on its own; adapter: a LoRA adapter, served on a base model. */
export const MODEL_KINDS = ["model", "adapter"] as const;
