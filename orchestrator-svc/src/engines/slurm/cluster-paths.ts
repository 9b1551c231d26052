/** A path inside a profile's folder on the cluster (home or cache, absolute or ~/…): `inside("~/svc/", "jobs", id)` is `~/svc/jobs/<id>`. */
export const inside = (folder: string, ...parts: string[]) => [folder.replace(/\/+$/, ""), ...parts].join("/");
