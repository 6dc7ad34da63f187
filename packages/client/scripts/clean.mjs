// Empties dist/ before a build, so that nothing a removed source left behind is packed.
import { rmSync } from "node:fs";

rmSync(new URL("../dist/", import.meta.url), { recursive: true, force: true });
