/**
 * `npm test`: the whole suite. Integration tests (Vitest, real SQLite files), then a fresh production build
 * and the browser tests (Playwright driving Debian's Chromium against the real server).
 */
import { spawnSync } from "node:child_process";

const steps: Array<[string, string[]]> = [
  ["vitest", ["run"]],
  ["node", ["scripts/ensure-chromium.ts"]],
  ["react-router", ["build"]],
  ["playwright", ["test"]],
];

for (const [command, args] of steps) {
  console.log(`\n▶ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`\n✖ ${command} ${args.join(" ")} falhou (código ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}
console.log("\n✔ Todos os testes passaram.");
