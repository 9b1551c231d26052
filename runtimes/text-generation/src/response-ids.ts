import { randomBytes } from "node:crypto";

export const completionId = (prefix: "chatcmpl" | "cmpl") => `${prefix}-${randomBytes(12).toString("hex")}`;
export const unixSeconds = () => Math.floor(Date.now() / 1000);
