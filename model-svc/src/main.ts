import { runService } from "@svc/platform";
import { features } from "./features";

runService("model-svc", features);
