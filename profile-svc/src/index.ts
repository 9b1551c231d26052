/** profile-svc: profiles.cfg behind /api/profiles. */
export { features } from "./features";
export { profilesController } from "./profiles";
export { gpusController } from "./gpus";
export { GpusService } from "./gpus/service";
export { ProfileService, type ProfileServiceOptions } from "./profiles/service";
export { profilesOnDisk } from "./offline";
