import { z } from "zod";
import { SerializedAppError } from "../errors.ts";

/** The body of an RPC reply: the handler's result, or the classified error it failed with. */
export const RpcReply = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: SerializedAppError }),
]);
export type RpcReply = z.infer<typeof RpcReply>;
