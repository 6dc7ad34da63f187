// Removes development packages from a `pnpm deploy --prod` tree. pnpm installs optional peer
// dependencies it resolved in the workspace (@prisma/client's peers `prisma` and `typescript`,
// and with the prisma CLI its studio, react, ...), none of which a running app loads. Walks the
// dependency graph from the app's own dependencies, never entering a package named in `drop`,
// and deletes every package of node_modules/.pnpm it did not reach and every link to one.
import { existsSync, lstatSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** The links (name -> absolute path) in a node_modules directory, scoped names included. */
function links(nodeModules) {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules)
    .filter((entry) => entry !== ".pnpm" && !entry.startsWith("."))
    .flatMap((entry) =>
      entry.startsWith("@")
        ? readdirSync(join(nodeModules, entry)).map((scoped) => ({ name: `${entry}/${scoped}`, path: join(nodeModules, entry, scoped) }))
        : [{ name: entry, path: join(nodeModules, entry) }],
    );
}

/** Returns the names of the removed .pnpm entries. */
export function pruneTree(out, drop) {
  const store = join(out, "node_modules", ".pnpm");
  const entryOf = (path) => relative(store, realpathSync(path)).split(sep)[0];
  const reached = new Set();
  const queue = links(join(out, "node_modules")).filter((link) => !drop.includes(link.name));
  while (queue.length > 0) {
    const link = queue.pop();
    if (!existsSync(link.path)) continue;
    const entry = entryOf(link.path);
    if (entry.startsWith("..") || reached.has(entry)) continue;
    reached.add(entry);
    for (const dep of links(join(store, entry, "node_modules"))) if (!drop.includes(dep.name)) queue.push(dep);
  }
  const removed = readdirSync(store).filter((entry) => entry !== "node_modules" && !entry.startsWith(".") && !reached.has(entry));
  for (const entry of removed) rmSync(join(store, entry), { recursive: true, force: true });
  // Links left pointing at removed packages (hoisted links, peers' links) go too.
  for (const dir of [
    join(out, "node_modules"),
    join(store, "node_modules"),
    ...[...reached].map((entry) => join(store, entry, "node_modules")),
  ]) {
    for (const link of links(dir)) if (lstatSync(link.path).isSymbolicLink() && !existsSync(link.path)) rmSync(link.path);
  }
  return removed;
}
