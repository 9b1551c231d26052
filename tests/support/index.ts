/** `@svc/testing`: what every package's tests share. */
export * from "./svc-app";
export * from "./docker";
export * from "./fake-hub";
export * from "./hf-cache";
export * from "./tricky-cache";
export * from "./ssh-keys";
export * from "./ssh-test-host";
export * from "./fake-engine";
export * from "./tiny-app";
export * from "./api-document";
export { assertDocumented, checkedFetch, checkedHandle, servedDocument, watchApp } from "./contract-check";
export { documentRuleProblems } from "./document-rules";
export * from "./zombie";
export * from "./cluster-app";
export * from "./metrics-text";
export * from "./lifecycle";
export * from "./service-history";
export * from "./page-tests";
