export { secretsEqual } from "./constant-time";
export { randomSecret } from "./random-secret";
