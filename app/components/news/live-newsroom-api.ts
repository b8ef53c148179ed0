import { t } from "../../i18n/newsroom.ts";

type Sent = { ok: true; json: unknown } | { ok: false; message: string };

/**
 * The newsroom's live-coverage calls to the JSON API (the panel, the scoreboard, each update's actions): the answer,
 * or the server's refusal in words.
 */
export async function send(method: string, url: string, body?: unknown): Promise<Sent> {
  try {
    const response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = response.status === 204 ? null : await response.json().catch(() => null);
    if (response.ok) return { ok: true, json };
    return { ok: false, message: (json as { error?: { message?: string } } | null)?.error?.message ?? t.liveNewsroom.failed };
  } catch {
    return { ok: false, message: t.liveNewsroom.failed };
  }
}

export const newsUrl = (newsId: string) => `/api/news/${encodeURIComponent(newsId)}`;
