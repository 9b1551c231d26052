export * from "./settings";
export * from "./home-layout";
export { MIN_TOKEN_LENGTH } from "./parse";
export * from "./images";
