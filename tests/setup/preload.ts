import { setDefaultTimeout } from "bun:test";
import { installContractCheck } from "@svc/testing/contract-check";

// Integration tests start real processes and containers. `npm test` passes --timeout 60000 for
// every file; this covers a plain `bun test <one file>` too (Bun applies it to the first file only).
setDefaultTimeout(60_000);

// Every answer of an app started by startSvc is checked against the OpenAPI document it serves.
installContractCheck();
