// System commands the project needs besides Node, each from a Debian package: libxslt's xsltproc
// applies HMRC's CT600 business rules (packages/govtalk, used by its tests and by authority-sim;
// `npm start` needs it too), Prometheus's promtool checks infra/observability's configuration and
// alert rules (packages/ops tests), Chromium is the browser of the browser tests (tests/browser,
// driven by playwright-core: browser downloads are impossible here). CI (root, fresh machine:
// scripts/ci-infra.mjs) installs what is missing; a developer is told how.
import { spawnSync } from "node:child_process";
import { log } from "./util.mjs";

const TOOLS = {
  xsltproc: {
    versionArgs: ["--version"],
    debianPackage: "xsltproc",
    why: "HMRC's CT600 business rules (packages/govtalk, authority-sim) are applied with it",
    hint: "install it with `sudo apt-get install -y xsltproc` (Debian/Ubuntu) or `brew install libxslt` (macOS)",
  },
  promtool: {
    versionArgs: ["--version"],
    debianPackage: "prometheus",
    why: "the Prometheus configuration and alert rules of infra/observability are checked with it (packages/ops tests)",
    hint: "install it with `sudo apt-get install -y prometheus` (Debian/Ubuntu) or `brew install prometheus` (macOS)",
  },
  chromium: {
    versionArgs: ["--version"],
    debianPackage: "chromium",
    why: "the browser tests (tests/browser) drive it through playwright-core",
    hint: "install it with `sudo apt-get install -y chromium` (Debian), or point CHROMIUM_PATH at another Chromium or Chrome",
  },
};

function has(command) {
  const result = spawnSync(command, TOOLS[command].versionArgs, { stdio: "ignore" });
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
 * Makes sure `command` (a key of TOOLS) can be run. With `install` (CI, as root) a missing one is
 * installed with apt-get (the package lists are updated first when the install fails without
 * them). Throws an Error saying how to install it when it is still missing.
 */
function ensureTool(command, { install = false } = {}) {
  if (has(command)) return;
  const tool = TOOLS[command];
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (install && root) {
    log(`${command} is missing (${tool.why}): installing the Debian package ${tool.debianPackage}`);
    if (!aptGet(["install", "-y", "-q", "--no-install-recommends", tool.debianPackage])) {
      aptGet(["update", "-q"]);
      aptGet(["install", "-y", "-q", "--no-install-recommends", tool.debianPackage]);
    }
    if (has(command)) return;
  }
  throw new Error(`${command} was not found: ${tool.why}; ${tool.hint}`);
}

/** For npm start and npm test: ends the process with the install hint when `command` is missing. */
function requireTool(command) {
  try {
    ensureTool(command);
  } catch (error) {
    log(error.message);
    process.exit(1);
  }
}

export const ensureXsltproc = (options) => ensureTool("xsltproc", options);
export const requireXsltproc = () => requireTool("xsltproc");
export const ensurePromtool = (options) => ensureTool("promtool", options);
export const ensureChromium = (options) => ensureTool("chromium", options);
