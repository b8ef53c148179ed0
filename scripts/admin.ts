/** `npm run admin -- …`: manage newsroom administrators (see app/.server/admins/admin-cli.server.ts). */
import { createServices, migrateAll } from "../app/.server/app.server.ts";
import { CliError, runAdminCli } from "../app/.server/admins/admin-cli.server.ts";
import { loadDotEnv, parseConfig } from "../app/.server/config/env.server.ts";
import { createLogger } from "../app/.server/logger.server.ts";

loadDotEnv();
const config = parseConfig();
const services = createServices(config, createLogger({ logLevel: "warn" }));
try {
  await migrateAll(services);
  console.log(await runAdminCli(process.argv.slice(2), services));
} catch (error) {
  if (error instanceof CliError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
} finally {
  await services.database.close();
}
