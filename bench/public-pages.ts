/**
 * `npm run bench`: load on the public pages of a production server on 127.0.0.1, bounded in time.
 * Seeds 300 news (so list sizes are realistic), then measures each page for BENCH_SECONDS (default 8)
 * with 20 connections, and prints requests/s, latency percentiles and the server's memory.
 *
 * Targets (on the 2-core reference machine): home p99 < 100 ms and ≥ 300 req/s; article p99 < 100 ms;
 * server RSS < 250 MB after the run. They are reported, not asserted by the test suite.
 */
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createNews, createSponsor } from "../tests/factories/news.ts";
import { startSite } from "../tests/e2e/support/site.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
if (!fs.existsSync("build/server/index.js")) execFileSync(process.execPath, ["node_modules/@react-router/dev/bin.cjs", "build"], { stdio: "inherit" });

let articleId = "";
const site = await startSite({
  async setup(services) {
    for (let index = 0; index < 300; index++) {
      const id = await createNews(services, { isHighlighted: index % 7 === 0, media: index < 40 ? "image" : null });
      if (index === 299) articleId = id;
    }
    for (let index = 0; index < 4; index++) await createSponsor(services);
  },
});

const targets = [
  { name: "home /", path: "/" },
  { name: "lista /news-list", path: "/news-list" },
  { name: "artigo /article/:id", path: `/article/${articleId}` },
];

try {
  const rows = [];
  for (const target of targets) {
    const result = await autocannon({ url: site.url + target.path, connections: 20, duration: seconds });
    if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    rows.push({
      page: target.name,
      "req/s": Math.round(result.requests.average),
      "p50 ms": result.latency.p50,
      "p99 ms": result.latency.p99,
      "KB/req": Math.round(result.throughput.average / result.requests.average / 1024),
    });
  }
  console.table(rows);
  const pid = site.pid;
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const rss = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  console.log(`memória do servidor (RSS): ${rss ? Math.round(Number(rss) / 1024) : "?"} MB`);
} finally {
  await site.stop();
}
