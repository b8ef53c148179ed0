/**
 * `npm run import:firestore -- <arquivo-ou-pasta> [--media-dir PASTA] [--dry-run]`: imports an export of the original
 * product's Firestore database (news, sponsors, admins) into the configured database (DATABASE_URL / DATA_DIR from
 * the environment or .env, like the server). See app/.server/import/firestore-import.server.ts and the README.
 *
 * Exit code: 0 when every document was imported or was already here, 2 when some were refused or some lines could
 * not be read (the others are imported), 1 when the import could not run at all.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { runCommand, withCommandServices } from "../app/.server/cli.server.ts";
import { importFirestore, summaryLines } from "../app/.server/import/firestore-import.server.ts";
import { terminal } from "../app/i18n/pt-BR.ts";

const USAGE = terminal.import.usage;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { "media-dir": { type: "string" }, "dry-run": { type: "boolean", default: false } },
  });
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
}
const [input, ...extra] = parsed.positionals;
if (!input || extra.length) fail(`${terminal.import.inputRequired}\n${USAGE}`);
const mediaDir = parsed.values["media-dir"] ?? null;
if (mediaDir && !fs.statSync(mediaDir, { throwIfNoEntry: false })?.isDirectory()) fail(terminal.import.mediaDirNotFolder(mediaDir));
const dryRun = parsed.values["dry-run"];

// An unreadable export (ExportReadError) ends the command with its message and exit code 1 (runCommand).
await runCommand(() =>
  withCommandServices(async (services, { config }) => {
    if (mediaDir && !dryRun && !(await services.store.isConnected())) {
      console.error(terminal.import.driveNotConnected);
      process.exitCode = 1;
      return;
    }
    const where = config.database.kind === "postgres" ? "PostgreSQL" : config.database.file;
    console.log(terminal.import.starting(dryRun, input, where));
    const summary = await importFirestore(services, input, { mediaDir, dryRun, report: (line) => console.error(line) });
    console.log(
      summaryLines(summary, {
        dryRun,
        externalOrigins: config.media.externalOrigins,
        database: config.database.kind,
      }).join("\n"),
    );
    if (summary.news.refused || summary.sponsors.refused || summary.unreadable) process.exitCode = 2;
  }),
);
