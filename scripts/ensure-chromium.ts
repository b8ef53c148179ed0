/**
 * Makes sure Debian's Chromium is there for the browser tests. As root with apt-get (as Playwright's own
 * install-deps does) it installs the `chromium` package; otherwise it fails with one line saying how.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

if (!existsSync(CHROMIUM_PATH)) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(`Chromium não encontrado em ${CHROMIUM_PATH}: instale com "sudo apt-get install -y chromium" (ou defina CHROMIUM_PATH).`);
    process.exit(1);
  }
  console.log("Chromium não encontrado: instalando o pacote chromium do Debian…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { stdio: "inherit", env });
  if (!existsSync(CHROMIUM_PATH)) {
    console.error(`A instalação terminou, mas ${CHROMIUM_PATH} não existe.`);
    process.exit(1);
  }
}
