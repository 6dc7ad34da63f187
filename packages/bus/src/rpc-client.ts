import { randomUUID } from "node:crypto";
import { AppError, BUS_HEADERS, RpcReply } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { Channel, ChannelModel, ConsumeMessage, Message } from "amqplib";
import type { RpcDefinition } from "./catalog/rpc-catalog.ts";
import type { BusConnection, ChannelUser } from "./connection.ts";
import { decodeBody, describeIssues, encodeBody, messageProperties, newMetadata } from "./envelope.ts";
import { BusError, BusUnavailableError, RpcConnectionLostError, RpcNoServerError, RpcTimeoutError } from "./errors.ts";
import { CurrentChannel } from "./current-channel.ts";
import { inRpcClientSpan, type TraceHeaders } from "./trace-context.ts";

const REPLY_TO = "amq.rabbitmq.reply-to";

interface PendingCall {
  type: string;
  channel: Channel;
  definition: RpcDefinition;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * RPC calls over direct reply-to: requests are published (mandatory) on the channel that consumes
 * `amq.rabbitmq.reply-to`, replies are matched by correlation id. A request nobody can receive
 * comes back at once (basic.return) as RpcNoServerError; no reply in time is RpcTimeoutError;
 * calls in flight when the connection or channel goes fail at once with RpcConnectionLostError
 * (their replies could never arrive on a new channel). All three are retryable.
 */
export class RpcClient implements ChannelUser {
  readonly name = "rpc-client";
  private readonly currentChannel: CurrentChannel<Channel>;
  private readonly pending = new Map<string, PendingCall>();

  constructor(
    connection: BusConnection,
    private readonly service: string,
    logger: Logger,
  ) {
    this.currentChannel = new CurrentChannel({
      logger,
      messages: { error: "rpc client channel error", listenerThrew: "rpc client listener threw" },
      reopen: (model) => connection.reattach(this, model),
    });
  }

  attach(model: ChannelModel): Promise<void> {
    return this.currentChannel.open(model, {
      create: (m) => m.createChannel(),
      onClose: (channel) => this.failCalls((call) => call.channel === channel),
      prepare: async (channel) => {
        channel.on("return", (message: Message) => this.onReturn(message));
        await channel.consume(REPLY_TO, (message) => message && this.onReply(message), { noAck: true });
      },
    });
  }

  detach(): void {
    this.currentChannel.clear();
    this.failCalls(() => true);
  }

  /** Calls waiting for a channel, and any later ones, fail at once with bus_closed. */
  close(): void {
    this.currentChannel.close(new BusError("bus_closed", "the bus is closed"));
  }

  async call(queue: string, type: string, definition: RpcDefinition, payload: unknown, timeoutMs: number): Promise<unknown> {
    const request = definition.request.safeParse(payload);
    if (!request.success) {
      throw new BusError("invalid_message", `${type}: invalid request: ${describeIssues(request.error.issues)}`);
    }
    return inRpcClientSpan(type, queue, (headers) => this.send(queue, type, definition, request.data, timeoutMs, headers));
  }

  private async send(
    queue: string,
    type: string,
    definition: RpcDefinition,
    payload: unknown,
    timeoutMs: number,
    headers: TraceHeaders,
  ): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    const channel = await this.currentChannel.wait(timeoutMs, () => new BusUnavailableError(type, timeoutMs));
    const metadata = newMetadata(type, definition.schemaVersion, headers);
    const correlationId = randomUUID();
    const remaining = Math.max(1, deadline - Date.now());
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        reject(new RpcTimeoutError(type, timeoutMs));
      }, remaining);
      this.pending.set(correlationId, { type, channel, definition, resolve, reject, timer });
      const properties = messageProperties(metadata, this.service, { [BUS_HEADERS.rpcDeadline]: deadline });
      try {
        channel.publish("", queue, encodeBody(payload), {
          ...properties,
          persistent: false,
          mandatory: true,
          replyTo: REPLY_TO,
          correlationId,
          expiration: String(remaining),
        });
      } catch {
        this.settle(correlationId)?.reject(new RpcConnectionLostError(type));
      }
    });
  }

  private settle(correlationId: string): PendingCall | undefined {
    const call = this.pending.get(correlationId);
    if (!call) return undefined;
    this.pending.delete(correlationId);
    clearTimeout(call.timer);
    return call;
  }

  private onReturn(message: Message): void {
    const call = this.settle(String(message.properties.correlationId));
    if (call) call.reject(new RpcNoServerError(call.type, message.fields.routingKey));
  }

  private onReply(message: ConsumeMessage): void {
    const call = this.settle(String(message.properties.correlationId));
    if (!call) return; // the caller gave up (timeout) before the reply came
    const body = decodeBody(message);
    const reply = body.ok ? RpcReply.safeParse(body.value) : undefined;
    if (!reply?.success) {
      call.reject(new AppError("INTERNAL_ERROR", `${call.type}: malformed reply`, { retryable: false }));
      return;
    }
    if (!reply.data.ok) {
      call.reject(AppError.fromJSON(reply.data.error));
      return;
    }
    const result = call.definition.response.safeParse(reply.data.result);
    if (result.success) call.resolve(result.data);
    else
      call.reject(
        new AppError("INTERNAL_ERROR", `${call.type}: invalid reply: ${describeIssues(result.error.issues)}`, { retryable: false }),
      );
  }

  private failCalls(which: (call: PendingCall) => boolean): void {
    for (const [correlationId, call] of this.pending) {
      if (!which(call)) continue;
      this.settle(correlationId);
      call.reject(new RpcConnectionLostError(call.type));
    }
  }
}
