import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import webpush from "web-push";
import { t } from "#app/i18n/newsroom.ts";
import { t as reader } from "#app/i18n/pt-BR.ts";
import { storedScoreboard } from "#app/lib/live-coverage.ts";
import { PUSH_LIMITS, PUSH_TOPICS, type PushPayload, type PushTopic, isPushTopic } from "#app/lib/push-topics.ts";
import { articlePath } from "#app/lib/slug.ts";
import { storyTeams } from "#app/.server/news/taxonomy/teams.server.ts";
import { readSetting, writeSettingOnce } from "#app/.server/db/app-settings.queries.server.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, NotFoundError } from "#app/.server/errors.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { type Actor, actorIdOf, requireMayAlert } from "#app/.server/auth/permissions.server.ts";
import {
  countSubscribers,
  countSubscriptions,
  deleteSubscription,
  deleteSubscriptionsById,
  findAlertsOf,
  findSubscribers,
  findTopicsOf,
  finishAlert,
  insertAlertOnce,
  type StoredSubscription,
  saveSubscription,
} from "./push.queries.server.ts";

/**
 * Web Push alerts (issue 36), self-hosted: the site makes its own VAPID key pair (kept in `app_settings`, the same for
 * every instance), readers' browsers subscribe to topics (push-topics.ts), and the desk sends a story or a live update
 * (a goal, the final whistle) as an alert, once. web-push encrypts each message (RFC 8291) and signs the request
 * (RFC 8292); this module posts it to the browser's push service (RFC 8030) with `fetch`, 32 at a time, each with a
 * deadline, and removes the browsers the service says are gone (404, 410). Sending starts after the post is saved
 * and never holds it up; `idle()` waits for what is being sent.
 *
 * A browser is reached only at a push service of PUSH_SERVICES: the endpoint is the reader's to send, and without
 * that list anyone could make the server post to an address of their choosing.
 */

const VAPID_SETTING = "push.vapid";
const SEND_CONCURRENCY = 32;
const SEND_TIMEOUT_MS = 10_000;
/** How long a push service keeps an alert for a phone that is off (seconds): a goal is old news after an hour. */
const ALERT_TTL_SECONDS = 3600;

export interface PushAlertsDeps {
  db: Kysely<Database>;
  log: Pick<Logger, "warn" | "info">;
  config: { enabled: boolean; services: readonly string[]; subject: string };
  now?: () => Date;
}

export interface SubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  topics: PushTopic[];
}

export interface AlertOutcome {
  recipients: number;
  delivered: number;
  removed: number;
  failed: number;
}

/** Whether `endpoint` is at one of `services` (exact origins, or `https://*.host` for its subdomains). */
export function isAllowedPushService(endpoint: string, services: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return services.some((service) => {
    const wildcard = /^https:\/\/\*\.(.+)$/.exec(service);
    if (wildcard) return url.protocol === "https:" && url.port === "" && url.hostname.endsWith(`.${wildcard[1]}`);
    return url.origin === service;
  });
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function base64urlBytes(value: unknown): number {
  if (typeof value !== "string" || !BASE64URL.test(value) || value.length > 200) return -1;
  return Buffer.from(value, "base64url").length;
}

/**
 * POST /api/push/subscriptions's body: `{ subscription: { endpoint, keys: { p256dh, auth } }, topics: [...] }` (the
 * browser's `PushSubscription.toJSON()` and the list it follows). 400 in Portuguese when anything is off.
 */
export function parseSubscriptionInput(body: Record<string, unknown>, services: readonly string[]): SubscriptionInput {
  const subscription = body.subscription as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | undefined;
  const endpoint = subscription?.endpoint;
  const p256dh = subscription?.keys?.p256dh;
  const auth = subscription?.keys?.auth;
  // A P-256 public key uncompressed (65 bytes) and a 16-byte auth secret, as every browser sends them.
  if (
    typeof endpoint !== "string" ||
    endpoint.length > PUSH_LIMITS.endpointMaxLength ||
    base64urlBytes(p256dh) !== 65 ||
    base64urlBytes(auth) !== 16
  ) {
    throw new AppError("invalid_subscription", reader.alerts.invalidSubscription, 400);
  }
  if (!isAllowedPushService(endpoint, services)) throw new AppError("push_service_not_allowed", reader.alerts.serviceNotAllowed, 400);
  const topics = body.topics;
  if (!Array.isArray(topics) || topics.length === 0 || topics.length > PUSH_LIMITS.topicsPerBrowser || !topics.every((topic) => isPushTopic(topic))) {
    throw new AppError("invalid_topics", reader.alerts.invalidTopics(PUSH_LIMITS.topicsPerBrowser), 400);
  }
  return { endpoint, p256dh: p256dh as string, auth: auth as string, topics: [...new Set(topics as string[])] };
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

export function createPushAlerts(deps: PushAlertsDeps) {
  const { db, log, config } = deps;
  const nowIso = () => (deps.now?.() ?? new Date()).toISOString();
  const sending = new Set<Promise<void>>();
  let keys: Promise<{ publicKey: string; privateKey: string }> | null = null;

  /** The site's VAPID key pair: made once for the installation (the first instance to ask writes it). */
  function vapidKeys() {
    keys ??= (async () => {
      const stored = await readSetting(db, VAPID_SETTING);
      if (stored) return JSON.parse(stored) as { publicKey: string; privateKey: string };
      await writeSettingOnce(db, VAPID_SETTING, JSON.stringify(webpush.generateVAPIDKeys()));
      return JSON.parse((await readSetting(db, VAPID_SETTING)) as string) as { publicKey: string; privateKey: string };
    })().catch((error: unknown) => {
      keys = null;
      throw error;
    });
    return keys;
  }

  function requireEnabled() {
    if (!config.enabled) throw new NotFoundError("push_disabled", t.deskAlerts.disabled);
  }

  /** One message to one browser: what came of it. */
  async function deliverOne(subscription: StoredSubscription, payload: string, vapid: { publicKey: string; privateKey: string }) {
    try {
      const request = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        { vapidDetails: { subject: config.subject, ...vapid }, TTL: ALERT_TTL_SECONDS, urgency: "high" },
      );
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ? new Uint8Array(request.body) : null,
        redirect: "manual",
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) return "removed" as const;
      return response.ok ? ("delivered" as const) : ("failed" as const);
    } catch {
      return "failed" as const;
    }
  }

  /** Sends the alert to `subscribers`, then records what came of it. */
  async function deliver(alertId: string, subscribers: readonly StoredSubscription[], payload: PushPayload): Promise<AlertOutcome> {
    const vapid = await vapidKeys();
    const message = JSON.stringify(payload);
    const outcome: AlertOutcome = { recipients: subscribers.length, delivered: 0, removed: 0, failed: 0 };
    const gone: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < subscribers.length) {
        const subscription = subscribers[next++] as StoredSubscription;
        const result = await deliverOne(subscription, message, vapid);
        outcome[result]++;
        if (result === "removed") gone.push(subscription.id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, subscribers.length) }, worker));
    await deleteSubscriptionsById(db, gone);
    await finishAlert(db, alertId, outcome, nowIso());
    if (outcome.failed > 0) log.warn({ alertId, ...outcome }, "push alert not delivered to every browser");
    else log.info({ alertId, ...outcome }, "push alert sent");
    return outcome;
  }

  /** Records the alert (once per key: 409 the second time) and starts sending it; answers at once. */
  async function send(alert: {
    key: string;
    newsId: string;
    updateId: string | null;
    topics: readonly string[];
    payload: PushPayload;
    actor: Actor;
  }): Promise<{ id: string; recipients: number }> {
    const id = randomUUID();
    const recorded = await insertAlertOnce(db, {
      id,
      alert_key: alert.key,
      news_id: alert.newsId,
      update_id: alert.updateId,
      title: alert.payload.title,
      body: alert.payload.body,
      url: alert.payload.url,
      created_at: nowIso(),
      created_by: actorIdOf(alert.actor),
    });
    if (!recorded) throw new AppError("alert_already_sent", t.deskAlerts.alreadySent, 409);
    // Read once: the answer's count and the list sent to are the same browsers.
    const subscribers = await findSubscribers(db, alert.topics);
    const task = deliver(id, subscribers, alert.payload)
      .then(() => undefined)
      .catch((error: unknown) => log.warn({ err: error, alertId: id }, "push alert failed"));
    sending.add(task);
    void task.finally(() => sending.delete(task));
    return { id, recipients: subscribers.length };
  }

  /** The story as an alert needs it: readers must see it, and only editors and admins send alerts. */
  async function alertableStory(newsId: string, actor: Actor) {
    requireEnabled();
    requireMayAlert(actor);
    const story = await db
      .selectFrom("news")
      .select(["id", "title", "subtitle", "status", "deleted_at", "category_slug", "live_scoreboard"])
      .where("id", "=", newsId)
      .executeTakeFirst();
    if (!story) throw new NotFoundError("news_not_found", t.news.notFound);
    if (story.status !== "published" || story.deleted_at !== null) throw new AppError("alert_not_public", t.deskAlerts.notPublic, 409);
    const teams = await storyTeams(db, newsId);
    return { ...story, teams: teams.map((team) => team.slug) };
  }

  return {
    enabled: config.enabled,

    /** The public key browsers subscribe with (base64url). */
    async publicKey(): Promise<string> {
      requireEnabled();
      return (await vapidKeys()).publicKey;
    },

    async subscribe(input: SubscriptionInput): Promise<void> {
      requireEnabled();
      await saveSubscription(db, input, nowIso());
    },

    async unsubscribe(endpoint: string): Promise<boolean> {
      requireEnabled();
      return deleteSubscription(db, endpoint);
    },

    topicsOf: (endpoint: string) => findTopicsOf(db, endpoint),

    /**
     * The story as an alert, to the site's general topic, its section's and its clubs' followers: its title, its
     * subtitle, its page. Editors and admins; a published story; once.
     */
    async sendStory(newsId: string, actor: Actor) {
      const story = await alertableStory(newsId, actor);
      const topics = [PUSH_TOPICS.general, PUSH_TOPICS.section(story.category_slug), ...story.teams.map(PUSH_TOPICS.team)];
      return send({
        key: `story:${newsId}`,
        newsId,
        updateId: null,
        topics,
        actor,
        payload: {
          title: clip(story.title, PUSH_LIMITS.titleMaxLength),
          body: clip(story.subtitle, PUSH_LIMITS.bodyMaxLength),
          url: articlePath(story),
          tag: `story:${newsId}`,
        },
      });
    },

    /**
     * A live update as an alert ("Gol!", "Fim de jogo"), to the match's followers and its clubs': the score when
     * there is one, the update's text, the story's page. Editors and admins; once per update.
     */
    async sendUpdate(newsId: string, updateId: string, actor: Actor) {
      const story = await alertableStory(newsId, actor);
      const update = await db
        .selectFrom("news_live_updates")
        .select(["id", "text", "event_type"])
        .where("news_id", "=", newsId)
        .where("id", "=", updateId)
        .executeTakeFirst();
      if (!update) throw new NotFoundError("update_not_found", t.liveNewsroom.updateNotFound);
      const score = storedScoreboard(story.live_scoreboard);
      const scoreLine = score ? `${score.home} ${score.homeScore} × ${score.awayScore} ${score.away}` : story.title;
      const lead = t.deskAlerts.eventTitle(update.event_type);
      return send({
        key: `update:${updateId}`,
        newsId,
        updateId,
        topics: [PUSH_TOPICS.match(newsId), ...story.teams.map(PUSH_TOPICS.team)],
        actor,
        payload: {
          title: clip(lead ? `${lead} ${scoreLine}` : scoreLine, PUSH_LIMITS.titleMaxLength),
          body: clip(update.text, PUSH_LIMITS.bodyMaxLength),
          url: articlePath(story),
          tag: PUSH_TOPICS.match(newsId),
        },
      });
    },

    /** The desk's view: the story's alerts, newest first, and how many browsers follow what its alerts reach. */
    async alertsOf(newsId: string) {
      const story = await db.selectFrom("news").select(["category_slug"]).where("id", "=", newsId).executeTakeFirst();
      const teams = await storyTeams(db, newsId);
      const topics = story
        ? [
            PUSH_TOPICS.general,
            PUSH_TOPICS.section(story.category_slug),
            PUSH_TOPICS.match(newsId),
            ...teams.map((team) => PUSH_TOPICS.team(team.slug)),
          ]
        : [];
      const rows = await findAlertsOf(db, newsId);
      return {
        followers: await countSubscribers(db, topics),
        alerts: rows.map((row) => ({
          title: row.title,
          createdAt: row.created_at,
          finishedAt: row.finished_at,
          ofUpdate: row.update_id !== null,
          recipients: row.recipients,
          delivered: row.delivered,
          removed: row.removed,
          failed: row.failed,
        })),
      };
    },

    countSubscriptions: () => countSubscriptions(db),

    /** Resolves when every alert being sent is done (tests, and a clean shutdown). */
    async idle(): Promise<void> {
      while (sending.size > 0) await Promise.allSettled([...sending]);
    },
  };
}

export type PushAlerts = ReturnType<typeof createPushAlerts>;

/**
 * A live update just posted, as an alert: `{ alert }` (how many browsers), or `{ alertError }` when it cannot go out
 * (the story is not published, alerts are off): the update stays posted and the desk is told why.
 */
export async function sendUpdateAlert(pushAlerts: PushAlerts, newsId: string, updateId: string, actor: Actor) {
  try {
    return { alert: await pushAlerts.sendUpdate(newsId, updateId, actor) };
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { alertError: { code: error.code, message: error.message } };
    throw error;
  }
}
