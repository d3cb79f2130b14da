import { afterAll } from "vitest";
import { removeTempDirs } from "./helpers/tempDir.js";
import { installNetGuard } from "./netGuard.js";

installNetGuard();
afterAll(removeTempDirs);
