import type { InferenceServer } from "@svc/contracts";

/**
 * A service's API key never goes on a command line (other users see those in `ps`, and Docker
 * shows a container's in `docker inspect`): engines hand it over in a file only its user can read,
 * and the server reads it from there (the project's runtimes: `--api-key-file`) or from its
 * environment, set from that file where it starts (SVC_API_KEY, vLLM's VLLM_API_KEY, or SGLANG_API_KEY,
 * which svc's start line for SGLang turns into its --api-key inside the process: see gpu-servers.ts).
 */
export const API_KEY_VARIABLE: Record<InferenceServer, string> = { svc: "SVC_API_KEY", vllm: "VLLM_API_KEY", sglang: "SGLANG_API_KEY" };

/** Which inference server an image (or, on bare Slurm, the program it stands for) runs. */
export const serverOf = (image: string): InferenceServer => (/sglang/i.test(image) ? "sglang" : /vllm/i.test(image) ? "vllm" : "svc");
