import { badRequest } from "@svc/contracts";
import type { ListPosition } from "../db/service-store";

/**
 * The `cursor` of GET /api/services: where the previous page ended, opaque to clients
 * (base64url of the last row's place in the order).
 */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.ended, position.createdAt, position.id])).toString("base64url");
}

export function decodeCursor(cursor: string): ListPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    (parsed[0] === 0 || parsed[0] === 1) &&
    typeof parsed[1] === "string" &&
    !Number.isNaN(Date.parse(parsed[1])) &&
    typeof parsed[2] === "string" &&
    parsed[2].length <= 64
  ) {
    return { ended: parsed[0], createdAt: parsed[1], id: parsed[2] };
  }
  throw badRequest(`cursor ${JSON.stringify(cursor.slice(0, 80))} is not one this API gave: pass the X-Next-Cursor of the previous page as it came.`, { field: "cursor" });
}
