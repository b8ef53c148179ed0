/**
 * `npm run seed:news -- --count N [--highlighted-share 0.15] [--images 60]`: adds N generated news to the configured
 * database (DATABASE_URL / DATA_DIR from the environment or .env, like the server), for load tests and trying the
 * site with a big archive. Running servers show them within seconds: on PostgreSQL the command publishes
 * `newsUpdated` (LISTEN/NOTIFY); on SQLite they see the file change (app/.server/events/sqlite-event-bus.server.ts).
 */
import { parseArgs } from "node:util";
import { runCommand, withCommandServices } from "#app/.server/cli.server.ts";
import { seedBulkNews } from "#app/.server/seed/bulk-news.server.ts";
import { terminal } from "#app/i18n/pt-BR.ts";

const USAGE = terminal.seedNews.usage;

/** Reads the options; a bad one ends the command with the usage line (exit code 1). */
function readOptions(argv: string[]): { count: number; highlightedShare: number; withImages: number } {
  const fail = (message: string): never => {
    console.error(`${message}\n${USAGE}`);
    process.exit(1);
  };
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { count: { type: "string" }, "highlighted-share": { type: "string" }, images: { type: "string" } },
    }));
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1) fail(terminal.seedNews.countRequired);
  const highlightedShare = Number(values["highlighted-share"] ?? 0.15);
  if (!(highlightedShare >= 0 && highlightedShare <= 1)) fail(terminal.seedNews.highlightedShare);
  const withImages = Number(values.images ?? 60);
  if (!Number.isInteger(withImages) || withImages < 0) fail(terminal.seedNews.images);
  return { count, highlightedShare, withImages };
}

const formatNumber = (value: number) => value.toLocaleString("pt-BR");
const seconds = (ms: number) => `${(ms / 1000).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} s`;

const options = readOptions(process.argv.slice(2));
await runCommand(() =>
  withCommandServices(async (services, { config }) => {
    const where = config.database.kind === "postgres" ? "PostgreSQL" : config.database.file;
    console.log(terminal.seedNews.adding(formatNumber(options.count), where));
    const started = performance.now();
    let lastReport = 0;
    const result = await seedBulkNews(services, {
      ...options,
      onProgress(inserted, total) {
        // About ten lines whatever the size, plus the last one.
        if (inserted < total && inserted - lastReport < total / 10) return;
        lastReport = inserted;
        console.log(`  ${formatNumber(inserted)} / ${formatNumber(total)} (${seconds(performance.now() - started)})`);
      },
    });
    if (result.inserted) await services.events.publish("newsUpdated");
    if (result.imagesSkipped) console.error(terminal.seedNews.imagesSkipped);
    const perSecond = Math.round(result.inserted / Math.max(result.ms / 1000, 0.001));
    console.log(
      terminal.seedNews.done(
        formatNumber(result.inserted),
        seconds(result.ms),
        formatNumber(perSecond),
        formatNumber(result.highlighted),
        formatNumber(result.withImages),
      ),
    );
  }),
);
