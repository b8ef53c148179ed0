/** `npm run db:migrate`: brings the configured database up to date without starting the server. */
import { runCommand, withCommandServices } from "#app/.server/cli.server.ts";
import { terminal } from "#app/i18n/pt-BR.ts";

await runCommand(() =>
  withCommandServices(async (_services, { applied }) => {
    console.log(applied.length ? terminal.migrate.applied(applied) : terminal.migrate.upToDate);
  }),
);
