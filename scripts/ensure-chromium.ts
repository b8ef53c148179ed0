/**
 * Makes sure Debian's Chromium is there for the browser tests: the full browser (`chromium`, for what a reader's
 * browser draws) and its headless shell (`chromium-headless-shell`, every other spec; see playwright.config.ts). As
 * root with apt-get (as Playwright's own install-deps does) it installs the missing packages; otherwise it fails with
 * one line saying how.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const browsers = [
  { path: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", variable: "CHROMIUM_PATH", debianPackage: "chromium" },
  {
    path: process.env.CHROMIUM_SHELL_PATH ?? "/usr/bin/chromium-headless-shell",
    variable: "CHROMIUM_SHELL_PATH",
    debianPackage: "chromium-headless-shell",
  },
];

const missing = browsers.filter((browser) => !existsSync(browser.path));
if (missing.length > 0) {
  const packages = missing.map((browser) => browser.debianPackage);
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
  if (!isRoot || !hasApt) {
    const where = missing.map((browser) => `${browser.path} (ou defina ${browser.variable})`).join(" e ");
    console.error(`Chromium não encontrado em ${where}: instale com "sudo apt-get install -y ${packages.join(" ")}".`);
    process.exit(1);
  }
  console.log(`Chromium não encontrado: instalando ${packages.join(" e ")} do Debian…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], { stdio: "inherit", env });
  for (const browser of missing) {
    if (!existsSync(browser.path)) {
      console.error(`A instalação terminou, mas ${browser.path} não existe.`);
      process.exit(1);
    }
  }
}
