import { runService } from "@svc/platform";
import { features } from "./features";

runService("profile-svc", features);
