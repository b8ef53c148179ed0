/**
 * `npm run weight [-- --from DATA_DIR]`: what a reader downloads on the first view of each reader page (home, an
 * article, the list). Loads each page in Chromium as a phone (412×823, like Lighthouse's mobile run) with an empty
 * cache, waits for hydration and for the network to go quiet, and sums every response by kind. "gzip" is the
 * body gzip-compressed here (level 6), so the figure does not depend on how the server compressed it; "rede" is what
 * went over the wire. Prints a table and writes bench-results/weight-<timestamp>.json.
 */
import { gzipSync } from "node:zlib";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { chromium, type Request, type Response } from "@playwright/test";
import { CHROMIUM_ARGS } from "../playwright.config.ts";
import { buildIfNeeded, type ReaderPage, resultFile, startReaderSite } from "./reader-site.ts";

const KINDS = ["script", "stylesheet", "font", "image", "document"] as const;
type Kind = (typeof KINDS)[number] | "other";

interface Resource {
  url: string;
  kind: Kind;
  bytes: number;
  gzipBytes: number;
  wireBytes: number;
}

interface PageWeight extends ReaderPage {
  resources: Resource[];
  totals: Record<Kind, { count: number; bytes: number; gzipBytes: number; wireBytes: number }>;
}

function kindOf(response: Response): Kind {
  const type = response.request().resourceType();
  return (KINDS as readonly string[]).includes(type) ? (type as Kind) : "other";
}

async function weigh(browser: Awaited<ReturnType<typeof chromium.launch>>, base: string, page: ReaderPage): Promise<PageWeight> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    locale: "pt-BR",
  });
  const tab = await context.newPage();
  const pending: Array<Promise<Resource | null>> = [];
  // The live-updates event stream stays open for good: "network idle" means nothing else is in flight.
  let inFlight = 0;
  let lastActivity = Date.now();
  const counts = (request: Request) => request.resourceType() !== "eventsource";
  tab.on("request", (request) => {
    if (counts(request)) inFlight++;
    lastActivity = Date.now();
  });
  const settled = (request: Request) => {
    if (counts(request)) inFlight--;
    lastActivity = Date.now();
  };
  tab.on("requestfinished", settled);
  tab.on("requestfailed", settled);
  tab.on("response", (response) => {
    pending.push(
      (async () => {
        if (response.request().resourceType() === "eventsource") return null;
        if (response.status() >= 300 && response.status() < 400) return null;
        const body = await response.body().catch(() => null);
        if (!body) return null;
        const sizes = await response
          .request()
          .sizes()
          .catch(() => null);
        const wireBytes = sizes ? sizes.responseBodySize + sizes.responseHeadersSize : body.length;
        return { url: response.url().replace(base, ""), kind: kindOf(response), bytes: body.length, gzipBytes: gzipSync(body).length, wireBytes };
      })(),
    );
  });
  await tab.goto(base + page.path, { waitUntil: "load" });
  await tab.locator('html[data-hydrated="true"]').waitFor({ state: "attached" });
  const deadline = Date.now() + 15_000;
  while (inFlight > 0 || Date.now() - lastActivity < 500) {
    if (Date.now() > deadline) throw new Error(`${page.path}: a rede não sossegou em 15 s (${inFlight} pedidos pendentes)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const resources = (await Promise.all(pending)).filter((resource): resource is Resource => resource !== null);
  await context.close();
  const totals = Object.fromEntries(
    [...KINDS, "other"].map((kind) => {
      const of = resources.filter((resource) => resource.kind === kind);
      const sum = (key: "bytes" | "gzipBytes" | "wireBytes") => of.reduce((total, resource) => total + resource[key], 0);
      return [kind, { count: of.length, bytes: sum("bytes"), gzipBytes: sum("gzipBytes"), wireBytes: sum("wireBytes") }];
    }),
  ) as PageWeight["totals"];
  return { ...page, resources, totals };
}

const kB = (bytes: number) => (bytes / 1024).toFixed(1);

function table(weights: PageWeight[]): string {
  const header = ["página", "JS arq.", "JS kB", "JS gzip kB", "CSS arq.", "CSS gzip kB", "fontes kB", "imagens kB", "HTML gzip kB"];
  const rows = weights.map((weight) => [
    weight.name,
    String(weight.totals.script.count),
    kB(weight.totals.script.bytes),
    kB(weight.totals.script.gzipBytes),
    String(weight.totals.stylesheet.count),
    kB(weight.totals.stylesheet.gzipBytes),
    `${kB(weight.totals.font.bytes)} (${weight.totals.font.count})`,
    `${kB(weight.totals.image.bytes)} (${weight.totals.image.count})`,
    kB(weight.totals.document.gzipBytes),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

async function main() {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { from: { type: "string" } } });
  buildIfNeeded();
  console.log("Iniciando o site de demonstração…");
  const { site, pages } = await startReaderSite({ fromDataDir: values.from });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const weights: PageWeight[] = [];
    for (const page of pages) weights.push(await weigh(browser, site.url, page));
    console.log(`\nO que um leitor baixa na primeira visita (celular, cache vazio):\n\n${table(weights)}\n`);
    for (const weight of weights) {
      const scripts = weight.resources.filter((resource) => resource.kind === "script").sort((a, b) => b.gzipBytes - a.gzipBytes);
      console.log(
        `${weight.name} (${weight.path}): ${scripts.map((script) => `${script.url.replace(/^\/assets\//, "")} ${kB(script.gzipBytes)}`).join(", ")}`,
      );
    }
    const file = resultFile("weight");
    fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), pages: weights }, null, 2));
    console.log(`\nResultado em ${file}`);
  } finally {
    await browser.close();
    await site.stop();
  }
}

await main();
