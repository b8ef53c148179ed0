import { href } from "react-router";
import { t } from "#app/i18n/newsroom.ts";

type Sent = { ok: true; json: unknown } | { ok: false; message: string; fields?: Record<string, string[]> };

/**
 * The newsroom's live-coverage calls to the JSON API (the panel, the scoreboard, each update's actions): the answer,
 * or the server's refusal in words (and, for a field it refused, `fields`: the messages by field).
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
    const error = (json as { error?: { message?: string; fields?: Record<string, string[]> } } | null)?.error;
    return { ok: false, message: error?.message ?? t.liveNewsroom.failed, ...(error?.fields ? { fields: error.fields } : {}) };
  } catch {
    return { ok: false, message: t.liveNewsroom.failed };
  }
}

export const newsUrl = (newsId: string) => href("/api/news/:id", { id: newsId });
