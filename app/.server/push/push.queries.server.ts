/** The Web Push tables (migration 2026-11-29-401): subscriptions, what each follows, and the alerts sent. */
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, PushAlertsTable } from "#app/.server/db/schema.ts";
import type { Insertable } from "kysely";

export interface StoredSubscription {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Adds the browser, or updates its keys, and makes `topics` the whole list it follows (in one transaction). The
 * endpoint is the browser's: whoever sends it may change what it follows (push services make them unguessable).
 */
export async function saveSubscription(
  db: Kysely<Database>,
  input: { endpoint: string; p256dh: string; auth: string; topics: readonly string[] },
  now: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("push_subscriptions")
      .values({ id: randomUUID(), endpoint: input.endpoint, p256dh: input.p256dh, auth: input.auth, created_at: now, updated_at: now })
      .onConflict((conflict) => conflict.column("endpoint").doUpdateSet({ p256dh: input.p256dh, auth: input.auth, updated_at: now }))
      .execute();
    const row = await trx.selectFrom("push_subscriptions").select("id").where("endpoint", "=", input.endpoint).executeTakeFirstOrThrow();
    await trx.deleteFrom("push_topics").where("subscription_id", "=", row.id).execute();
    await trx
      .insertInto("push_topics")
      .values(input.topics.map((topic) => ({ subscription_id: row.id, topic })))
      .execute();
  });
}

/** Removes the browser and what it follows; whether it was there. */
export async function deleteSubscription(db: Kysely<Database>, endpoint: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("push_subscriptions").select("id").where("endpoint", "=", endpoint).executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom("push_topics").where("subscription_id", "=", row.id).execute();
    await trx.deleteFrom("push_subscriptions").where("id", "=", row.id).execute();
    return true;
  });
}

/** Removes browsers the push service says are gone (by id). */
export async function deleteSubscriptionsById(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 500) {
    const batch = ids.slice(start, start + 500);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("push_topics").where("subscription_id", "in", batch).execute();
      await trx.deleteFrom("push_subscriptions").where("id", "in", batch).execute();
    });
  }
}

/** Every browser following any of `topics`, each once. */
export async function findSubscribers(db: Kysely<Database>, topics: readonly string[]): Promise<StoredSubscription[]> {
  if (topics.length === 0) return [];
  return db
    .selectFrom("push_subscriptions")
    .select(["id", "endpoint", "p256dh", "auth"])
    .where("id", "in", (sub) =>
      sub
        .selectFrom("push_topics")
        .select("subscription_id")
        .where("topic", "in", [...topics]),
    )
    .execute();
}

/** The topics a browser follows (null: not subscribed). */
export async function findTopicsOf(db: Kysely<Database>, endpoint: string): Promise<string[] | null> {
  const row = await db.selectFrom("push_subscriptions").select("id").where("endpoint", "=", endpoint).executeTakeFirst();
  if (!row) return null;
  const topics = await db.selectFrom("push_topics").select("topic").where("subscription_id", "=", row.id).orderBy("topic").execute();
  return topics.map((topic) => topic.topic);
}

/** Records an alert unless one with its key exists: whether this call recorded it. */
export async function insertAlertOnce(db: Kysely<Database>, alert: Insertable<PushAlertsTable>): Promise<boolean> {
  const result = await db
    .insertInto("push_alerts")
    .values(alert)
    .onConflict((conflict) => conflict.column("alert_key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function finishAlert(
  db: Kysely<Database>,
  id: string,
  outcome: { recipients: number; delivered: number; removed: number; failed: number },
  now: string,
): Promise<void> {
  await db
    .updateTable("push_alerts")
    .set({ ...outcome, finished_at: now })
    .where("id", "=", id)
    .execute();
}

/** A story's alerts (the story's own and its live updates'), newest first. */
export async function findAlertsOf(db: Kysely<Database>, newsId: string) {
  return db
    .selectFrom("push_alerts")
    .select(["id", "alert_key", "update_id", "title", "created_at", "finished_at", "recipients", "delivered", "removed", "failed"])
    .where("news_id", "=", newsId)
    .orderBy("created_at", "desc")
    .limit(50)
    .execute();
}

/** Browsers subscribed in all. */
export async function countSubscriptions(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("push_subscriptions")
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many browsers follow at least one of `topics` (each once). */
export async function countSubscribers(db: Kysely<Database>, topics: readonly string[]): Promise<number> {
  if (topics.length === 0) return 0;
  const row = await db
    .selectFrom("push_topics")
    .select((eb) => eb.fn.count<number | string | bigint>("subscription_id").distinct().as("count"))
    .where("topic", "in", [...topics])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
