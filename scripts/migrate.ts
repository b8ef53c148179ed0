/** `npm run db:migrate`: brings the configured database up to date without starting the server. */
import { createServices, migrateAll } from "../app/.server/app.server.ts";
import { loadDotEnv, parseConfig } from "../app/.server/config/env.server.ts";
import { terminal } from "../app/i18n/pt-BR.ts";

loadDotEnv();
const services = createServices(parseConfig());
try {
  const applied = await migrateAll(services);
  console.log(applied.length ? terminal.migrate.applied(applied) : terminal.migrate.upToDate);
} finally {
  await services.database.close();
}
