/**
 * What a reader may follow with Web Push alerts, in the browser and on the server alike: the site's important news
 * (`geral`), a section (`secao:{slug}`), a club (`time:{slug}`) or one live match (`jogo:{news id}`). A browser sends
 * the whole list it follows each time (at most PUSH_LIMITS.topicsPerBrowser).
 */
export type PushTopic = string;

export const PUSH_TOPICS = {
  general: "geral",
  section: (slug: string): PushTopic => `secao:${slug}`,
  team: (slug: string): PushTopic => `time:${slug}`,
  match: (newsId: string): PushTopic => `jogo:${newsId}`,
} as const;

const TOPIC = /^(?:geral|(?:secao|time):[a-z0-9][a-z0-9-]{0,79}|jogo:[\w-]{1,64})$/;

export function isPushTopic(value: unknown): value is PushTopic {
  return typeof value === "string" && TOPIC.test(value);
}

export const PUSH_LIMITS = {
  /** Topics one browser follows. */
  topicsPerBrowser: 50,
  /** A push service's address (they are ~150–400 characters). */
  endpointMaxLength: 1024,
  /** An alert's title and text as sent (a push message carries at most ~4 kB). */
  titleMaxLength: 120,
  bodyMaxLength: 240,
} as const;

/** What the service worker receives in each push message (JSON). */
export interface PushPayload {
  title: string;
  body: string;
  /** A path of this site: where tapping the notification leads. */
  url: string;
  /** Notifications with the same tag replace each other (one per story or match). */
  tag: string;
}

/** The edit page's "Alerta aos leitores" panel: its anchor, and the query parameter its plain form comes back with. */
export const ALERT_FORM_ANCHOR = "alerta";
export const ALERT_FORM_PARAM = "alerta";

/** A push message's text as the service worker shows it, or null (not ours, or a link off this site). */
export function parsePushPayload(text: string | null | undefined): PushPayload | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<PushPayload>;
    if (typeof value.title !== "string" || typeof value.url !== "string" || !value.url.startsWith("/") || value.url.startsWith("//")) return null;
    return {
      title: value.title,
      body: typeof value.body === "string" ? value.body : "",
      url: value.url,
      tag: typeof value.tag === "string" ? value.tag : value.url,
    };
  } catch {
    return null;
  }
}
