// Removes test databases, templates, roles, vhosts and RabbitMQ users that earlier (crashed or
// killed) runs left behind.
// npm test runs it before the suite on CI; locally run it by hand when nothing else is testing:
//   node --import tsx packages/testing/src/cli/cleanup.ts
import { dropLeftoverTestDatabases, dropLeftoverTestRoles } from "../postgres.ts";
import { deleteLeftoverTestUsers, deleteLeftoverTestVhosts } from "../rabbitmq.ts";

const databases = await dropLeftoverTestDatabases();
const roles = await dropLeftoverTestRoles();
const vhosts = await deleteLeftoverTestVhosts();
const users = await deleteLeftoverTestUsers();
process.stderr.write(
  `[dormant] removed ${databases} leftover test databases, ${roles} test roles, ${vhosts} test vhosts and ${users} test users\n`,
);
