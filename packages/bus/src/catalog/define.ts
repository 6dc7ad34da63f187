import type { MessageCatalog } from "./message-catalog.ts";
import type { RpcCatalog } from "./rpc-catalog.ts";

/**
 * Identity functions that keep the literal types of a catalog (queue names, type names), which
 * the handler maps and call sites are checked against. The catalogs are checked against the
 * topology when the bus starts (catalogProblems).
 */
export function defineMessageCatalog<const C extends MessageCatalog>(catalog: C): C {
  return catalog;
}

export function defineRpcCatalog<const R extends RpcCatalog>(catalog: R): R {
  return catalog;
}
