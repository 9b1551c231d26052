/** Requests generated from the API document's schemas, for the fuzz test (tests/app/api-fuzz.test.ts). */
export { requestArbitraries, type FuzzRequest } from "./requests";
export { brokenValue, validValue, type Broken, type Schema, type SchemaContext } from "./values";
