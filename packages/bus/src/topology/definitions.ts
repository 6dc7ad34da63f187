import { RABBIT_HASHING_ALGORITHM } from "./password-hash.ts";
import { servicePermissions } from "./permissions.ts";
import { planTopology } from "./plan.ts";
import type { Topology } from "./spec.ts";

/**
 * The topology as RabbitMQ definitions (the JSON the management plugin exports and imports, also
 * `rabbitmqctl import_definitions`): exchanges, queues, bindings, and one user per service role
 * with the permissions derived from it (servicePermissions). RPC queues are left out: their
 * servers declare them (auto-delete).
 */
export interface RabbitDefinitions {
  users?: { name: string; password_hash: string; hashing_algorithm: string; tags: string[] }[];
  vhosts: { name: string }[];
  permissions?: { user: string; vhost: string; configure: string; write: string; read: string }[];
  exchanges: {
    name: string;
    vhost: string;
    type: string;
    durable: boolean;
    auto_delete: boolean;
    internal: boolean;
    arguments: Record<string, never>;
  }[];
  queues: { name: string; vhost: string; durable: boolean; auto_delete: boolean; arguments: Record<string, string | number> }[];
  bindings: {
    source: string;
    vhost: string;
    destination: string;
    destination_type: "queue";
    routing_key: string;
    arguments: Record<string, never>;
  }[];
}

export interface DefinitionsOptions {
  /** Default `/`. */
  vhost?: string;
  /** The topology alone: no users, no permissions. */
  topologyOnly?: boolean;
  /** A service's RabbitMQ user (default serviceUserName: `dormant-<service>`). */
  userName?: (service: string) => string;
  /**
   * A service's `password_hash` (rabbitPasswordHash of its password). Default: a placeholder that
   * names the variable the deploy-time export reads it from (passwordVariable) and that is not
   * base64, so that importing the file before the hashes are put in fails before anything
   * changes: users, then everything else, are imported in that order.
   */
  passwordHash?: (service: string) => string;
}

/** The RabbitMQ user of a service, unless the deployment names them otherwise. */
export function serviceUserName(service: string, prefix = "dormant-"): string {
  return `${prefix}${service}`;
}

/** The variable the deploy-time export reads a service's password from: `AMQP_PASSWORD_TAX_SUBMITTER`. */
export function passwordVariable(service: string): string {
  return `AMQP_PASSWORD_${service.toUpperCase().replace(/-/g, "_")}`;
}

/** What the committed file holds instead of a hash (the deploy-time export replaces it). */
export function passwordPlaceholder(service: string): string {
  return `SET_AT_DEPLOY:${passwordVariable(service)}`;
}

export function topologyDefinitions(topology: Topology, options: DefinitionsOptions = {}): RabbitDefinitions {
  const vhost = options.vhost ?? "/";
  const plan = planTopology(topology);
  const roles = options.topologyOnly ? [] : (topology.services ?? []);
  const userName = options.userName ?? ((service: string) => serviceUserName(service));
  const passwordHash = options.passwordHash ?? passwordPlaceholder;
  const access = roles.length > 0 && {
    users: roles.map((role) => ({
      name: userName(role.service),
      password_hash: passwordHash(role.service),
      hashing_algorithm: RABBIT_HASHING_ALGORITHM,
      tags: [],
    })),
    permissions: roles.map((role) => ({ user: userName(role.service), vhost, ...servicePermissions(topology, role) })),
  };
  return {
    ...(access ? { users: access.users } : {}),
    vhosts: [{ name: vhost }],
    ...(access ? { permissions: access.permissions } : {}),
    exchanges: plan.exchanges.map((e) => ({
      name: e.name,
      vhost,
      type: e.type,
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    })),
    queues: plan.queues.map((q) => ({ name: q.name, vhost, durable: q.durable, auto_delete: q.autoDelete, arguments: { ...q.arguments } })),
    bindings: plan.bindings.map((b) => ({
      source: b.exchange,
      vhost,
      destination: b.queue,
      destination_type: "queue" as const,
      routing_key: b.routingKey,
      arguments: {},
    })),
  };
}

/** The file text committed as infra/rabbitmq/definitions.json (with the default options). */
export function renderDefinitions(topology: Topology, options: DefinitionsOptions = {}): string {
  return `${JSON.stringify(topologyDefinitions(topology, options), null, 2)}\n`;
}
