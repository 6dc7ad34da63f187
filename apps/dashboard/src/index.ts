// @dormant/dashboard: the agents' web dashboard (issue 16). Integration tests run it in-process.
export { createDashboardApp } from "./app.ts";
export { loadDashboardConfig } from "./env.ts";
export type { DashboardConfig } from "./env.ts";
export { startDashboard } from "./service.ts";
export type { DashboardService } from "./service.ts";
