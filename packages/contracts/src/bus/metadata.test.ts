import { describe, expect, it } from "vitest";
import { SerializedAppError } from "../errors.ts";
import { BusMessageMetadata, MessageTypeName, Traceparent } from "./metadata.ts";
import { RpcReply } from "./rpc.ts";

describe("bus metadata", () => {
  const metadata = {
    message_id: "0b8a3c53-8d4e-4f5a-9a65-6f2b1f4a2c10",
    type: "filing.accepted",
    schema_version: 1,
    occurred_at: "2026-05-01T10:15:30.000Z",
    request_id: "req-1",
    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  };

  it("accepts complete metadata", () => {
    expect(BusMessageMetadata.parse(metadata)).toEqual(metadata);
  });

  it("requires every field", () => {
    for (const field of Object.keys(metadata)) {
      const { [field as keyof typeof metadata]: _dropped, ...rest } = metadata;
      expect(BusMessageMetadata.safeParse(rest).success, field).toBe(false);
    }
  });

  it("accepts only W3C traceparents of version 00 with non-zero ids", () => {
    expect(Traceparent.safeParse(metadata.traceparent).success).toBe(true);
    expect(Traceparent.safeParse("00-00000000000000000000000000000000-00f067aa0ba902b7-01").success).toBe(false);
    expect(Traceparent.safeParse("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01").success).toBe(false);
    expect(Traceparent.safeParse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").success).toBe(false);
    expect(Traceparent.safeParse("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01").success).toBe(false);
  });

  it("names message types as dotted lower-case words", () => {
    expect(MessageTypeName.safeParse("tax.poll").success).toBe(true);
    expect(MessageTypeName.safeParse("filing").success).toBe(false);
    expect(MessageTypeName.safeParse("Filing.Accepted").success).toBe(false);
  });
});

describe("rpc reply", () => {
  it("is a result or a serialised AppError", () => {
    expect(RpcReply.parse({ ok: true, result: { id: 1 } })).toEqual({ ok: true, result: { id: 1 } });
    const error = SerializedAppError.parse({ code: "INSUFFICIENT_BALANCE", message: "balance too low", retryable: false });
    expect(RpcReply.parse({ ok: false, error })).toEqual({ ok: false, error });
    expect(RpcReply.safeParse({ ok: false, error: { code: "NOPE", message: "x", retryable: false } }).success).toBe(false);
  });
});
