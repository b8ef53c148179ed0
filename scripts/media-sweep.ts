/**
 * `npm run media:sweep [-- --dry-run] [-- --force]`: one orphan-media sweep now, on the configured database and store
 * (the server also sweeps on its timer, never at start). `--dry-run` lists what would be removed and removes nothing;
 * `--force` removes even when the sweep would refuse (far more to remove than the database references: check first
 * with --dry-run that the database is the right one).
 */
import { parseArgs } from "node:util";
import { createServices, migrateAll } from "../app/.server/app.server.ts";
import { loadDotEnv, parseConfig } from "../app/.server/config/env.server.ts";
import { LOCK_KEYS, runWithLock } from "../app/.server/db/locks.server.ts";
import { createLogger } from "../app/.server/logger.server.ts";
import { sweepOrphans } from "../app/.server/media/orphan-sweeper.server.ts";
import { terminal } from "../app/i18n/pt-BR.ts";

const { values } = parseArgs({ options: { "dry-run": { type: "boolean" }, force: { type: "boolean" } }, strict: true });
loadDotEnv();
const config = parseConfig();
const services = createServices(config, createLogger({ logLevel: "warn" }));
try {
  await migrateAll(services);
  const installationId = await services.installation.id();
  const result = await runWithLock(services.database, LOCK_KEYS.orphanSweep, () =>
    sweepOrphans({
      db: services.database.db,
      store: services.store,
      log: services.log,
      installationId,
      graceMs: config.media.sweepGraceMs,
      tmpDirs: [config.media.uploadTmpDir],
      dryRun: Boolean(values["dry-run"]),
      force: Boolean(values.force),
    }),
  );
  console.log(terminal.mediaSweep.installation(installationId, services.store.name));
  if (result.refused) {
    console.error(terminal.mediaSweep.refused(result.refused));
    process.exitCode = 1;
  } else if (result.wouldRemove) {
    for (const key of result.wouldRemove) console.log(key);
    console.log(terminal.mediaSweep.wouldRemove(result.wouldRemove.length));
  } else {
    console.log(terminal.mediaSweep.removed(result.removedRecords, result.removedFiles, result.removedTempFiles));
  }
  if (result.skippedUnowned) console.log(terminal.mediaSweep.skippedUnowned(result.skippedUnowned));
} finally {
  await services.events.close();
  await services.database.close();
}
