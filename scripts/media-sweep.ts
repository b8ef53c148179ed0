/**
 * `npm run media:sweep [-- --dry-run] [-- --force]`: one orphan-media sweep now, on the configured database and store
 * (the server also sweeps on its timer, never at start). `--dry-run` lists what would be removed (objects, then the
 * stale `*.part` temporary files of uploads and writes that never finished) and removes nothing; `--force` removes
 * even when the sweep would refuse (far more to remove than the database references: check first with --dry-run that
 * the database is the right one). Temporary files younger than MEDIA_SWEEP_GRACE_SECONDS are never touched.
 */
import { parseArgs } from "node:util";
import { runCommand, withCommandServices } from "#app/.server/cli.server.ts";
import { LOCK_KEYS, runWithLock } from "#app/.server/db/locks.server.ts";
import { storeFailure, storeFailureOr } from "#app/.server/dependencies.server.ts";
import { sweepOrphans } from "#app/.server/media/orphan-sweeper.server.ts";
import { terminal } from "#app/i18n/pt-BR.ts";

await runCommand(async () => {
  const { values } = parseArgs({ options: { "dry-run": { type: "boolean" }, force: { type: "boolean" } }, strict: true });
  await withCommandServices(async (services, { config }) => {
    const installationId = await services.installation.id();
    // The sweep lists the whole store: one that does not answer is said in one line, before anything is looked at.
    const storeDown = await storeFailure(services.store, config);
    if (storeDown) throw storeDown;
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
    ).catch(async (error: unknown) => {
      // The store stopped answering during the sweep: the same one line.
      throw await storeFailureOr(error, services.store, config);
    });
    console.log(terminal.mediaSweep.installation(installationId, services.store.name));
    if (result.refused) {
      console.error(terminal.mediaSweep.refused(result.refused));
      process.exitCode = 1;
    } else if (result.wouldRemove) {
      for (const key of result.wouldRemove) console.log(key);
      console.log(terminal.mediaSweep.wouldRemove(result.wouldRemove.length));
      const temp = result.wouldRemoveTemp ?? [];
      for (const file of temp) console.log(file);
      console.log(terminal.mediaSweep.wouldRemoveTemp(temp.length));
    } else {
      console.log(terminal.mediaSweep.removed(result.removedRecords, result.removedFiles, result.removedTempFiles));
    }
    if (result.skippedUnowned) console.log(terminal.mediaSweep.skippedUnowned(result.skippedUnowned));
  });
});
