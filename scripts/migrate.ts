/** `npm run db:migrate`: brings the configured database up to date without starting the server. */
import { loadDotEnv, parseConfig } from "../app/.server/config/env.server.ts";
import { openDatabase } from "../app/.server/db/database.server.ts";
import { migrateToLatest } from "../app/.server/db/migrate.server.ts";

loadDotEnv();
const config = parseConfig();
const database = openDatabase(config);
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Migrações aplicadas: ${applied.join(", ")}` : "Banco de dados já está atualizado.");
} finally {
  await database.close();
}
