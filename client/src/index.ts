export { SvcClient, type SvcClientOptions, type RequestOptions } from "./client";
export { SvcApiError, SvcUnreachableError } from "./errors";
export { clientFromEnvironment, localToken } from "./from-environment";
export { ProfilesApi } from "./profiles";
export { ServicesApi } from "./services";
export { ModelsApi } from "./models";
export { ImagesApi } from "./images";
