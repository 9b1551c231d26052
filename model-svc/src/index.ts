/** model-svc: the model registry behind /api/models. */
export { features } from "./features";
export { openModelDb } from "./db/connection";
export { ModelService } from "./models/service";
export { staticProfileSource, type ProfileSource } from "./profiles/source";
export { scanProfile } from "./discovery/scan-profile";
