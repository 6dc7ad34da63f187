// @dormant/authority-client/testing: what both submitters' test harnesses share (their
// src/test-support/*-harness.ts): the test world (vhost, Redis prefix, simulator, the filing
// side of the bus), the simulator's control API, and waiting for a final outcome.
export { submitterTestWorld } from "./submitter-test-world.ts";
export type { AmqpConnect, FilingSideBus, SubmitterTestWorld, SubmitterTestWorldOptions, TestSim } from "./submitter-test-world.ts";
export { simControl } from "./sim-control.ts";
export type { SimControl } from "./sim-control.ts";
export { waitForFinalOutcome } from "./final-outcome.ts";
