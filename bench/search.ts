/**
 * `node bench/search.ts`: times searches against the configured database (DATA_DIR / DATABASE_URL, as the server;
 * fill it first with `npm run seed:news -- --count 100000`). Each query runs a few times after a warm-up; the
 * median and the slowest of the search service's time (SQL, text processing and highlighting, no HTTP) are printed.
 */
import { createServices } from "#app/.server/app.server.ts";
import { loadDotEnv, parseConfig } from "#app/.server/config/env.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";

const QUERIES: Array<{ query: string; page?: number }> = [
  { query: "sao paulo" },
  { query: "selecao" },
  { query: "gols" },
  { query: "campeonato" },
  { query: "jogadores" },
  { query: "final decidida nos pênaltis" },
  { query: "Mariana Toledo" },
  { query: "gols", page: 20 },
  { query: "xyzzy" },
];
const RUNS = 7;

loadDotEnv();
const config = parseConfig({ ...process.env, LOG_LEVEL: "silent", SEED_DEMO: "0" });
const services = createServices(config, createLogger({ logLevel: "silent" }));
try {
  const count = await services.database.db
    .selectFrom("news")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  console.log(`${services.database.dialect}: ${Number(count.n).toLocaleString("pt-BR")} notícias`);
  for (const { query, page = 1 } of QUERIES) {
    const times: number[] = [];
    let found = 0;
    let more = false;
    await services.search.search({ query, page });
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const result = await services.search.search({ query, page });
      times.push(performance.now() - started);
      found = result.hits.length;
      more = result.nextPage !== null;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const label = `"${query}"${page > 1 ? ` página ${page}` : ""}`;
    console.log(
      `${label.padEnd(36)} mediana ${median.toFixed(1).padStart(7)} ms  máx ${times.at(-1)!.toFixed(1).padStart(7)} ms  ${found} resultados${more ? " (e mais)" : ""}`,
    );
  }
} finally {
  await services.events.close();
  await services.database.close();
}
