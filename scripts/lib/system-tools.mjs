// System commands the project needs besides Node: libxslt's xsltproc applies HMRC's CT600
// business rules (packages/govtalk, used by its tests and by authority-sim). Debian package
// `xsltproc`; CI (root, fresh machine) installs it, a developer is told how.
import { spawnSync } from "node:child_process";
import { log } from "./util.mjs";

const INSTALL_HINT = "install it with `sudo apt-get install -y xsltproc` (Debian/Ubuntu) or `brew install libxslt` (macOS)";

function hasXsltproc() {
  const result = spawnSync("xsltproc", ["--version"], { stdio: "ignore" });
  return result.status === 0;
}

function aptGet(args) {
  log(`apt-get ${args.join(" ")}`);
  const result = spawnSync("apt-get", args, {
    stdio: ["ignore", process.stderr, process.stderr],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

/**
 * Makes sure `xsltproc` can be run. With `install` (CI, as root) a missing one is installed with
 * apt-get (the package lists are updated first when the install fails without them). Throws an
 * Error saying how to install it when it is still missing.
 */
export function ensureXsltproc({ install = false } = {}) {
  if (hasXsltproc()) return;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (install && root) {
    log("xsltproc is missing (HMRC's business rules need it): installing the Debian package xsltproc");
    if (!aptGet(["install", "-y", "-q", "xsltproc"])) {
      aptGet(["update", "-q"]);
      aptGet(["install", "-y", "-q", "xsltproc"]);
    }
    if (hasXsltproc()) return;
  }
  throw new Error(
    `xsltproc was not found: HMRC's CT600 business rules (packages/govtalk, authority-sim) are applied with it; ${INSTALL_HINT}`,
  );
}

/** For npm start and npm test: ends the process with the install hint when xsltproc is missing. */
export function requireXsltproc() {
  try {
    ensureXsltproc();
  } catch (error) {
    log(error.message);
    process.exit(1);
  }
}
