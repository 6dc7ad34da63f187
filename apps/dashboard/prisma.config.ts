import { defineConfig } from "prisma/config";

// Client generation only: migrations are hand-written SQL applied by src/migrate.ts (the Prisma
// schema engine is not available on machines limited to package registries).
export default defineConfig({ schema: "prisma/schema.prisma" });
