import { afterAll } from "vitest";
// The collectors register their config sections as the registry loads (config/section.ts).
import "../src/collectors/registry.js";
import { removeTempDirs } from "./helpers/tempDir.js";
import { installNetGuard } from "./netGuard.js";

installNetGuard();
afterAll(removeTempDirs);
