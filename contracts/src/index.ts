export * from "./errors";
export * from "./info";
export * from "./topology";
export * from "./version";
