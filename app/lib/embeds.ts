/**
 * Posts from YouTube, Instagram, X and TikTok inside an article's text. A link to one of them alone on a line
 * becomes an embed: the page shows a static block (nothing loads from the provider) until the reader clicks, and
 * only then the provider's player, in an iframe. Everything else in the text stays plain text.
 *
 * The link is parsed strictly: only known hosts, known paths and ids of the provider's own shape. The URLs the page
 * uses (the iframe's and the link's) are rebuilt from the validated id and nothing else of what was typed.
 */

export type EmbedProvider = "youtube" | "instagram" | "x" | "tiktok";

export interface Embed {
  provider: EmbedProvider;
  /**
   * The post's id, what an embed block of the body stores: YouTube's video id, Instagram's `p/CODE` or `reel/CODE`,
   * X's status number, TikTok's `@user/ID`. `embedFromStored` turns it back into the embed.
   */
  id: string;
  /** The provider's player, loaded into an iframe after the click. */
  frameSrc: string;
  /** The post on the provider's site (the link without JavaScript). */
  href: string;
}

/**
 * The origins the iframes come from: the page's `frame-src` allows exactly these (server/security-headers.ts).
 * Every `frameSrc` below starts with one of them.
 */
export const EMBED_FRAME_ORIGINS = [
  "https://www.youtube-nocookie.com",
  "https://www.instagram.com",
  "https://platform.twitter.com",
  "https://www.tiktok.com",
] as const;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const INSTAGRAM_CODE = /^[A-Za-z0-9_-]{5,64}$/;
const NUMERIC_ID = /^[0-9]{1,20}$/;
const TIKTOK_USER = /^[A-Za-z0-9._]{1,32}$/;

const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const INSTAGRAM_HOSTS = new Set(["instagram.com", "www.instagram.com"]);
const X_HOSTS = new Set(["x.com", "www.x.com", "twitter.com", "www.twitter.com", "mobile.twitter.com", "mobile.x.com"]);
const TIKTOK_HOSTS = new Set(["tiktok.com", "www.tiktok.com", "m.tiktok.com"]);

/** The path's segments, without empty ones (a trailing slash). */
function segmentsOf(url: URL): string[] {
  return url.pathname.split("/").filter((segment) => segment !== "");
}

function youtube(id: string | null | undefined): Embed | null {
  if (!id || !YOUTUBE_ID.test(id)) return null;
  return {
    provider: "youtube",
    id,
    frameSrc: `https://www.youtube-nocookie.com/embed/${id}?autoplay=1`,
    href: `https://www.youtube.com/watch?v=${id}`,
  };
}

const TIKTOK_SHORT_HOSTS = new Set(["vm.tiktok.com", "vt.tiktok.com"]);

/**
 * TikTok's short links (vm.tiktok.com/CODE, vt.tiktok.com/CODE, tiktok.com/t/CODE): the code is not the video's id,
 * and TikTok's player needs the id. Only TikTok knows where one leads (a redirect), and the site never follows links
 * to other servers, at save time or in tests: a short link is refused with its own message (use the full link), never
 * embedded.
 */
export function isTikTokShortLink(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  const host = url.hostname.toLowerCase();
  if (TIKTOK_SHORT_HOSTS.has(host)) return segmentsOf(url).length === 1;
  return TIKTOK_HOSTS.has(host) && segmentsOf(url).length === 2 && segmentsOf(url)[0] === "t";
}

/** The embed a single link stands for, or null when it is not a post of a known provider. */
export function parseEmbedUrl(text: string): Embed | null {
  // A bare link only: no spaces, no quotes or angle brackets, not absurdly long.
  if (text.length > 500 || !/^https?:\/\/[^\s"'<>\\]+$/i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();
  const parts = segmentsOf(url);

  if (host === "youtu.be") return parts.length === 1 ? youtube(parts[0]) : null;
  if (YOUTUBE_HOSTS.has(host)) {
    if (parts.length === 1 && parts[0] === "watch") return youtube(url.searchParams.get("v"));
    if (parts.length === 2 && ["shorts", "embed", "live", "v"].includes(parts[0]!)) return youtube(parts[1]);
    return null;
  }
  if (INSTAGRAM_HOSTS.has(host)) {
    // /p/CODE/, /reel/CODE/, /tv/CODE/, optionally after the author's name (/user/p/CODE/).
    const at = parts.findIndex((part) => part === "p" || part === "reel" || part === "tv");
    if (at < 0 || at > 1 || parts.length !== at + 2) return null;
    const kind = parts[at]!;
    const code = parts[at + 1]!;
    if (!INSTAGRAM_CODE.test(code)) return null;
    const path = kind === "reel" ? "reel" : "p";
    return {
      provider: "instagram",
      id: `${path}/${code}`,
      frameSrc: `https://www.instagram.com/${path}/${code}/embed/`,
      href: `https://www.instagram.com/${path}/${code}/`,
    };
  }
  if (X_HOSTS.has(host)) {
    // /user/status/ID (also /i/web/status/ID), optionally followed by /photo/1 or /video/1.
    const at = parts.indexOf("status");
    if (at < 1 || at > 2) return null;
    const id = parts[at + 1];
    const rest = parts.slice(at + 2);
    if (!id || !NUMERIC_ID.test(id)) return null;
    if (rest.length > 0 && !(rest.length === 2 && (rest[0] === "photo" || rest[0] === "video") && /^[1-4]$/.test(rest[1]!))) return null;
    return {
      provider: "x",
      id,
      frameSrc: `https://platform.twitter.com/embed/Tweet.html?id=${id}&dnt=true&lang=pt`,
      href: `https://x.com/i/status/${id}`,
    };
  }
  if (TIKTOK_HOSTS.has(host)) {
    // /@user/video/ID
    if (parts.length !== 3 || parts[1] !== "video") return null;
    const user = parts[0]!;
    const id = parts[2]!;
    if (!user.startsWith("@") || !TIKTOK_USER.test(user.slice(1)) || !NUMERIC_ID.test(id)) return null;
    return {
      provider: "tiktok",
      id: `${user}/${id}`,
      frameSrc: `https://www.tiktok.com/player/v1/${id}`,
      href: `https://www.tiktok.com/${user}/video/${id}`,
    };
  }
  return null;
}

/** The address a stored embed (provider and id) stands for, checked by the same parser as a pasted link. */
const STORED_URL: Record<EmbedProvider, (id: string) => string> = {
  youtube: (id) => `https://youtu.be/${id}`,
  instagram: (id) => `https://www.instagram.com/${id}/`,
  x: (id) => `https://x.com/i/status/${id}`,
  tiktok: (id) => `https://www.tiktok.com/${id.replace("/", "/video/")}`,
};

/**
 * The embed of an embed block (provider and id, as `Embed.id`), or null when the pair is not one the link parser
 * would have produced: the same allow-list as a pasted link, so a stored block cannot point anywhere else.
 */
export function embedFromStored(provider: string, id: string): Embed | null {
  if (!Object.hasOwn(STORED_URL, provider) || typeof id !== "string" || id.length > 200) return null;
  const embed = parseEmbedUrl(STORED_URL[provider as EmbedProvider](id));
  return embed && embed.provider === provider && embed.id === id ? embed : null;
}

export type ContentBlock = { type: "text"; text: string } | { type: "embed"; embed: Embed; key: string };

/**
 * The article's text as blocks: runs of plain text, and an embed for each line that holds nothing but a link to a
 * known provider's post. The line break that ends an embed's line (and the one before it) belongs to the embed,
 * which is a block of its own; every other character of the text stays in a text block as it was.
 */
export function contentBlocks(text: string): ContentBlock[] {
  const lines = text.split("\n");
  const blocks: ContentBlock[] = [];
  let pending: string[] | null = null;
  lines.forEach((line, index) => {
    const embed = parseEmbedUrl(line.trim());
    if (!embed) {
      if (pending) pending.push(line);
      else pending = [line];
      return;
    }
    if (pending) blocks.push({ type: "text", text: pending.join("\n") });
    pending = null;
    blocks.push({ type: "embed", embed, key: `${index}` });
  });
  if (pending) blocks.push({ type: "text", text: (pending as string[]).join("\n") });
  if (blocks.length <= 1) return blocks;
  // Next to an embed (a block with margins of its own), the empty lines around it would only add blank space.
  return blocks
    .map((block) => (block.type === "text" ? { ...block, text: block.text.replace(/^(?:[ \t]*\n)+|(?:\n[ \t]*)+$/g, "") } : block))
    .filter((block) => block.type === "embed" || block.text.trim() !== "");
}
