import { createTestVhost, type TestVhost } from "@dormant/testing";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A RabbitMQ vhost of this test run where nothing serves filing.rpc (the live seam answers 503). */
    gatewayAmqpUrl: string;
  }
}

let vhost: TestVhost | undefined;

/**
 * One RabbitMQ vhost for the gateway's test files (creating one per file costs seconds). No test
 * serves an RPC queue in it, so it is shared safely; tests that serve filing.rpc make their own.
 */
export async function setup(project: TestProject): Promise<void> {
  vhost = await createTestVhost("gateway");
  project.provide("gatewayAmqpUrl", vhost.url);
}

export async function teardown(): Promise<void> {
  await vhost?.delete();
}
