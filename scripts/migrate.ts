/** `npm run db:migrate`: brings the configured database up to date without starting the server. */
import { createServices, migrateAll } from "../app/.server/app.server.ts";
import { loadDotEnv, parseConfig } from "../app/.server/config/env.server.ts";

loadDotEnv();
const services = createServices(parseConfig());
try {
  const applied = await migrateAll(services);
  console.log(applied.length ? `Migrações aplicadas: ${applied.join(", ")}` : "Banco de dados já está atualizado.");
} finally {
  await services.database.close();
}
