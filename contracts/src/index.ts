export * from "./errors";
export * from "./info";
export * from "./topology";
export * from "./version";
export * from "./profiles";
export * from "./services";
export * from "./models";
export * from "./images";
