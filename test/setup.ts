import { installNetGuard } from "./netGuard.js";

installNetGuard();
