import { sql } from "kysely";
import type { Route } from "./+types/readyz";
import { servicesOf } from "../../.server/context.server.ts";

/**
 * Readiness: the database answers and the media store is reachable. 503 with the failing part otherwise.
 * A Google Drive store waiting for an admin's consent is reported but does not fail readiness: the instance must
 * stay in the pool so an admin can reach 'Conectar ao Google Drive'.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { database, store, log } = servicesOf(context);
  const checks: Record<string, "ok" | "falha" | "não conectado"> = {};
  try {
    await sql`select 1`.execute(database.db);
    checks.database = "ok";
  } catch (error) {
    log.error({ err: error }, "readiness: database check failed");
    checks.database = "falha";
  }
  try {
    const connected = await store.isConnected();
    checks.media = connected ? "ok" : store.name === "gdrive" ? "não conectado" : "falha";
  } catch (error) {
    log.error({ err: error }, "readiness: media store check failed");
    checks.media = "falha";
  }
  const ready = Object.values(checks).every((value) => value !== "falha");
  return Response.json({ status: ready ? "ok" : "indisponível", checks }, { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
