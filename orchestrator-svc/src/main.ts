import { runService } from "@svc/platform";
import { features } from "./features";

runService("orchestrator-svc", features);
