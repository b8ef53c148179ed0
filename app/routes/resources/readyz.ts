import { sql } from "kysely";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";
import type { Route } from "./+types/readyz";
import { servicesOf } from "#app/.server/context.server.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

type Check = "ok" | "failed" | "timed out" | "behind" | "not connected" | "unavailable, limits in memory";

/** How long each check may take: past it the check counts as failed ("timed out") and the answer goes out. */
const READY_CHECK_DEADLINE_MS = 800;
/**
 * How far behind the other instances' changes this instance may be (its event link down or not answering) and still
 * take readers: the page cache's bound on a stale page (decision record 003).
 */
const READY_EVENTS_BEHIND_MS = 3_000;

/**
 * Readiness: whether this instance can serve readers — the database answers and, on PostgreSQL, the event link
 * (LISTEN/NOTIFY, which tells this instance of the other instances' changes, takedowns included) answered within the
 * last 3 s. 503 with the failing part otherwise, so a load balancer takes a cut-off instance out of the pool until it
 * is back and has resynced.
 *
 * What readers' pages do not need is reported without failing readiness (status "degraded", still 200): the media
 * store ("failed" while S3 does not answer: pages still render, only their media requests get 503, and taking every
 * instance out would take the whole site down for it), a store an admin must connect ("not connected": Google Drive
 * waiting for consent; the admin must reach the connection page) and Redis (the shared rate limits: while it is
 * unreachable every instance counts in its own memory).
 *
 * Each check has a deadline (`READY_CHECK_DEADLINE_MS`): a database whose packets are held makes its check "timed
 * out", and the answer still leaves within about a second (the check itself may stay pending).
 *
 * The answer is for load balancers and monitoring, in English like the logs: `{ status: "ok" | "degraded" |
 * "unavailable", checks: { database, events?, media, redis? } }`.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { database, store, rateLimiter, events, log } = servicesOf(context);
  const [db, media, redis] = await Promise.all([
    bounded(
      sql`select 1`.execute(database.db).then((): Check => "ok"),
      (error) => log.error({ err: error }, "readiness: database check failed"),
    ),
    bounded(
      store.isConnected().then((connected): Check => (connected ? "ok" : store.needsConnection ? "not connected" : "failed")),
      (error) => log.error({ err: error }, "readiness: media store check failed"),
    ),
    rateLimiter.backend
      ? bounded(
          rateLimiter.backend().then((backend): Check => (backend === "redis" ? "ok" : "unavailable, limits in memory")),
          () => undefined,
        )
      : null,
  ]);
  const checks: Record<string, Check> = { database: db };
  if (events.currentAsOf) {
    const behindMs = Date.now() - events.currentAsOf();
    checks.events = behindMs > READY_EVENTS_BEHIND_MS ? "behind" : "ok";
    if (checks.events !== "ok") log.warn({ behindMs }, "readiness: the event link has not answered; out of the pool until it is back");
  }
  checks.media = media;
  if (redis) checks.redis = redis === "failed" ? "unavailable, limits in memory" : redis;
  const ready = checks.database === "ok" && (checks.events ?? "ok") === "ok";
  const status = !ready ? "unavailable" : checks.media === "ok" && (checks.redis ?? "ok") === "ok" ? "ok" : "degraded";
  return Response.json({ status, checks }, { status: ready ? 200 : 503, headers: { "Cache-Control": NO_STORE } });
}

/** The check's answer, "failed" when it throws, or "timed out" once the deadline passes (the check may go on). */
function bounded(check: Promise<Check>, onError: (error: unknown) => void): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve("timed out"), READY_CHECK_DEADLINE_MS);
  });
  const answered = check.catch((error: unknown): Check => {
    onError(error);
    return "failed";
  });
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
