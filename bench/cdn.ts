/**
 * `npm run bench:cdn [-- --news 300 --seconds 10 --connections 50 --publishes 20]`: the site behind Varnish with the
 * configuration it ships (deploy/varnish/default.vcl, Debian's varnishd, installed when missing), purged by the site
 * (CDN_PURGE_URL). Measures the home and an article through Varnish (hits), then how long a publish takes to show
 * on the home read through Varnish and a takedown to turn the article into a 404 there (each `--publishes` times,
 * asked every 5 ms). Prints a table and the budget (a purge visible in < 1 s; PASS/MISS, never failing the process)
 * and writes bench-results/cdn-<timestamp>.json.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { seedBulkNews } from "#app/.server/seed/bulk-news.server.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { startSite } from "#tests/factories/site.ts";
import { startVarnish, varnishPort } from "#tests/factories/varnish.ts";
import { buildIfNeeded } from "./build.ts";
import { chooseLoadTool, type LoadResult, runLoad } from "./load.ts";
import { signInAdmin } from "./processes.ts";
import { resultFile } from "./reader-site.ts";

function readOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      news: { type: "string", default: "300" },
      seconds: { type: "string", default: "10" },
      connections: { type: "string", default: "50" },
      publishes: { type: "string", default: "20" },
    },
  });
  const number = (name: string, value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} precisa ser um inteiro ≥ 1.`);
    return parsed;
  };
  return {
    news: number("news", values.news),
    seconds: number("seconds", values.seconds),
    connections: number("connections", values.connections),
    publishes: number("publishes", values.publishes),
  };
}

function ensureVarnish(): void {
  try {
    execFileSync("varnishd", ["-V"], { stdio: "ignore" });
  } catch {
    console.log("varnishd não encontrado: instalando com apt-get…");
    execFileSync("apt-get", ["install", "-y", "-qq", "varnish"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
}

/** Milliseconds from `act` until `seen` says yes, asking every 5 ms (10 s at most: then Infinity). */
async function timeUntil(act: () => Promise<void>, seen: () => Promise<boolean>): Promise<number> {
  await act();
  const started = performance.now();
  while (performance.now() - started < 10_000) {
    if (await seen()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Number.POSITIVE_INFINITY;
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
};

async function main() {
  const options = readOptions(process.argv.slice(2));
  await buildIfNeeded();
  ensureVarnish();
  const tool = chooseLoadTool();
  const port = await varnishPort();
  const admin = { email: "", password: "Senha-bench-cdn-1" };
  let articlePath = "";
  console.log(`Semeando ${options.news} notícias…`);
  const site = await startSite({
    env: { PAGE_CACHE: "1", LOG_LEVEL: "warn", LOGIN_RATE_LIMIT: "1000", CDN_PURGE_URL: `http://127.0.0.1:${port}` },
    async setup(services) {
      const seeded = await seedBulkNews(services, { count: options.news });
      articlePath = `/article/${seeded.newestId}`;
      admin.email = (await createAdmin(services, { password: admin.password })).email;
    },
  });
  const varnish = await startVarnish({ port, backendPort: Number(new URL(site.url).port) }).catch(async (error: unknown) => {
    await site.stop();
    throw error;
  });
  try {
    const headers = { "Accept-Encoding": "br, gzip" };
    const rows: Array<{ page: string } & LoadResult & { xCache: string }> = [];
    // The article's canonical address (a 301 from the bare id otherwise).
    articlePath = new URL((await fetch(varnish.url + articlePath, { redirect: "follow" })).url).pathname;
    for (const [page, pathname] of [
      ["home", "/"],
      ["artigo", articlePath],
    ] as const) {
      await fetch(varnish.url + pathname);
      const probe = await fetch(varnish.url + pathname);
      process.stdout.write(`  ${page} pelo Varnish: medindo ${options.seconds} s… `);
      const result = await runLoad(tool, varnish.url + pathname, { connections: options.connections, seconds: options.seconds, threads: 1, headers });
      console.log(`${Math.round(result.perSecond)} req/s`);
      rows.push({ page, ...result, xCache: probe.headers.get("x-cache") ?? "-" });
    }

    const cookie = await signInAdmin(site.url, admin.email, admin.password);
    const write = (method: string, pathname: string, body?: FormData) =>
      fetch(site.url + pathname, { method, body, headers: { cookie, origin: site.url } }).then(async (response) => {
        if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${(await response.text()).slice(0, 200)}`);
        return response;
      });
    const publishMs: number[] = [];
    const takedownMs: number[] = [];
    for (let round = 0; round < options.publishes; round++) {
      const title = `Publicação medida ${round} ${Date.now()}`;
      let id = "";
      await fetch(`${varnish.url}/`);
      publishMs.push(
        await timeUntil(
          async () => {
            const form = new FormData();
            for (const [key, value] of Object.entries({ title, subtitle: "Sub.", fullContent: "Texto.", category: "Futebol" }))
              form.append(key, value);
            id = ((await (await write("POST", "/api/news", form)).json()) as { id: string }).id;
          },
          async () => (await (await fetch(`${varnish.url}/`)).text()).includes(title),
        ),
      );
      const article = `/article/${id}`;
      await fetch(varnish.url + article, { redirect: "manual" });
      takedownMs.push(
        await timeUntil(
          async () => void (await write("DELETE", `/api/news/${id}`)),
          async () => (await fetch(varnish.url + article, { redirect: "manual" })).status === 404,
        ),
      );
    }
    const summary = (values: number[]) => ({ p50: percentile(values, 0.5), p95: percentile(values, 0.95), max: Math.max(...values) });
    const publish = summary(publishMs);
    const takedown = summary(takedownMs);

    console.log("\npágina   req/s   p50 ms  p99 ms  erros/não-2xx  X-Cache");
    for (const row of rows) {
      console.log(
        `${row.page.padEnd(7)} ${String(Math.round(row.perSecond)).padStart(6)}  ${row.p50Ms.toFixed(2).padStart(6)}  ${row.p99Ms.toFixed(2).padStart(6)}  ${`${row.errors}/${row.non2xx}`.padStart(13)}  ${row.xCache}`,
      );
    }
    const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : "> 10 s");
    console.log(
      `\nPublicação até a home pelo Varnish (${options.publishes}×): mediana ${ms(publish.p50)}, p95 ${ms(publish.p95)}, máx. ${ms(publish.max)}`,
    );
    console.log(
      `Retirada até o 404 pelo Varnish (${options.publishes}×): mediana ${ms(takedown.p50)}, p95 ${ms(takedown.p95)}, máx. ${ms(takedown.max)}`,
    );
    const pass = publish.max < 1000 && takedown.max < 1000;
    console.log(`\nOrçamento:\n  ${pass ? "PASS" : "MISS"}  purga visível pelo Varnish < 1 s: máx. ${ms(Math.max(publish.max, takedown.max))}`);
    const file = resultFile("cdn");
    fs.writeFileSync(file, JSON.stringify({ options, tool, rows, publishMs, takedownMs, publish, takedown, pass }, null, 2));
    console.log(`Resultados em ${file}`);
  } finally {
    await varnish.stop();
    await site.stop();
  }
}

await main();
