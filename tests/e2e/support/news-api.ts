/**
 * The JSON API as a signed-in admin uses it: the headers a write needs, creating a news item, checking a status.
 */
import { type APIResponse, type BrowserContext, expect } from "@playwright/test";
import type { RunningSite } from "#tests/factories/site.ts";

/** Headers for a write to the JSON API: the Origin the CSRF guard asks for when a session cookie is sent. */
export function apiHeaders(site: RunningSite): Record<string, string> {
  return { origin: site.url };
}

export interface ApiNewsFields {
  title: string;
  subtitle?: string;
  fullContent?: string;
  /** The structured body (ProseMirror JSON, app/lib/rich-text.ts), sent as its JSON text; wins over fullContent. */
  body?: object;
  category?: string;
  author?: string;
  isHighlighted?: boolean;
  /** Default with an image: "Imagem de {title}" (a new image needs a description). */
  mediaDescription?: string;
  mediaCaption?: string;
  mediaCredit?: string;
}

/**
 * Creates a news item through the JSON API (POST /api/news, multipart) as the admin signed in on `context`.
 * Returns its id.
 */
export async function createNewsThroughApi(
  context: BrowserContext,
  site: RunningSite,
  fields: ApiNewsFields,
  media?: { name: string; mimeType: string; buffer: Buffer },
): Promise<string> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    title: fields.title,
    subtitle: fields.subtitle ?? `Subtítulo de ${fields.title}`,
    fullContent: fields.fullContent ?? `Conteúdo de ${fields.title}`,
    category: fields.category ?? "Futebol",
    author: fields.author ?? "",
  };
  if (fields.body) multipart.body = JSON.stringify(fields.body);
  if (fields.isHighlighted) multipart.isHighlighted = "on";
  if (media) {
    multipart.media = media;
    if (media.mimeType.startsWith("image/")) multipart.mediaDescription = fields.mediaDescription ?? `Imagem de ${fields.title}`;
  }
  for (const key of ["mediaCaption", "mediaCredit"] as const) if (fields[key]) multipart[key] = fields[key];
  const response = await context.request.post(`${site.url}/api/news`, { multipart, headers: apiHeaders(site) });
  await expectStatus(response, 201, "POST /api/news");
  const body = (await response.json()) as { id: string };
  return body.id;
}

/** Asserts an HTTP status, showing the start of the body when it differs. */
export async function expectStatus(response: APIResponse, status: number, what: string): Promise<void> {
  if (response.status() !== status) expect(response.status(), `${what}: ${(await response.text()).slice(0, 400)}`).toBe(status);
}
