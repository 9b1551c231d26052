import { setDefaultTimeout } from "bun:test";

// Integration tests start real processes and containers: give each test a minute.
setDefaultTimeout(60_000);
