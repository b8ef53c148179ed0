import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Web Push alerts (issue 36). `push_subscriptions`: one browser that asked for alerts, as its push service gave it
 * (the endpoint, unique, and the two keys its messages are encrypted with); nothing ties it to a person. What it
 * follows is in `push_topics` (`geral`, `secao:{slug}`, `time:{slug}`, `jogo:{news id}`), read by topic. A browser
 * the push service says is gone (404, 410) is removed with its topics.
 * `push_alerts`: what the desk sent (a story, or one live update), once per `alert_key` (`story:{id}`,
 * `update:{id}`), with how many browsers it went to and what came of it; kept with the story.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("endpoint", "text", (col) => col.notNull().unique())
    .addColumn("p256dh", "text", (col) => col.notNull())
    .addColumn("auth", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createTable("push_topics")
    .addColumn("subscription_id", "text", (col) => col.notNull().references("push_subscriptions.id").onDelete("cascade"))
    .addColumn("topic", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("push_topics_pk", ["subscription_id", "topic"])
    .execute();
  await db.schema.createIndex("push_topics_topic_idx").on("push_topics").columns(["topic", "subscription_id"]).execute();
  await db.schema
    .createTable("push_alerts")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("alert_key", "text", (col) => col.notNull().unique())
    .addColumn("news_id", "text", (col) => col.notNull().references("news.id").onDelete("cascade"))
    .addColumn("update_id", "text")
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("created_by", "text")
    .addColumn("finished_at", "text")
    .addColumn("recipients", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("delivered", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("removed", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("failed", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("push_alerts_news_idx").on("push_alerts").columns(["news_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("push_alerts").execute();
  await db.schema.dropTable("push_topics").execute();
  await db.schema.dropTable("push_subscriptions").execute();
}
