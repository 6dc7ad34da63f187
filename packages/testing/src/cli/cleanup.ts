// Removes test databases, templates and vhosts that earlier (crashed or killed) runs left behind.
// npm test runs it before the suite on CI; locally run it by hand when nothing else is testing:
//   node --import tsx packages/testing/src/cli/cleanup.ts
import { dropLeftoverTestDatabases } from "../postgres.ts";
import { deleteLeftoverTestVhosts } from "../rabbitmq.ts";

const databases = await dropLeftoverTestDatabases();
const vhosts = await deleteLeftoverTestVhosts();
process.stderr.write(`[dormant] removed ${databases} leftover test databases and ${vhosts} test vhosts\n`);
