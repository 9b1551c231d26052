import { V1_BODY_LIMIT } from "./paths";

export interface V1Body {
  /** The `model` field, when there is one. */
  model: string | undefined;
  /** What to send upstream. */
  bytes: ArrayBuffer;
  /** A JSON request for a stream (`stream: true`). */
  stream: boolean;
  /** The JSON body, when it is JSON (so a field can be added before it goes upstream). */
  json: Record<string, unknown> | undefined;
}

/** A JSON body to send upstream. */
export const jsonBytes = (json: unknown) => new TextEncoder().encode(JSON.stringify(json)).buffer as ArrayBuffer;

export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

async function readLimited(request: Request): Promise<ArrayBuffer> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > V1_BODY_LIMIT) throw new BodyError(413, "body_too_large", `The request body is larger than /v1's limit of ${V1_BODY_LIMIT / 1024 / 1024} MiB.`);
  if (!request.body) return new ArrayBuffer(0);
  // A declared length is all the server lets through: read at once, not part by part through an async iterator.
  if (declared <= V1_BODY_LIMIT) return request.arrayBuffer();
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += part.byteLength;
    if (size > V1_BODY_LIMIT) throw new BodyError(413, "body_too_large", `The request body is larger than /v1's limit of ${V1_BODY_LIMIT / 1024 / 1024} MiB.`);
    parts.push(part);
  }
  const all = Buffer.concat(parts);
  return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
}

/** Reads a /v1 request's body (JSON, or a multipart upload) far enough to know its `model`. */
export async function readV1Body(request: Request): Promise<V1Body> {
  const bytes = await readLimited(request);
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "content-type": request.headers.get("content-type")! } }).formData();
    } catch {
      throw new BodyError(400, "invalid_request", "The multipart body could not be read.");
    }
    const model = form.get("model");
    return { model: typeof model === "string" ? model : undefined, bytes, stream: false, json: undefined };
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new BodyError(400, "invalid_request", "The request body is not valid JSON: send a JSON object with a `model` field.");
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new BodyError(400, "invalid_request", "The request body must be a JSON object with a `model` field.");
  const body = json as Record<string, unknown>;
  return { model: typeof body.model === "string" ? body.model : undefined, bytes, stream: body.stream === true, json: body };
}
