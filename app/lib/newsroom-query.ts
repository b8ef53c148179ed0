import { href } from "react-router";
import { MAX_QUERY_LENGTH } from "./search.ts";
import type { NewsStatus } from "./news-view.ts";

/**
 * The newsroom list's URL (/redacao): every filter, the sort and the cursor are query parameters, so a filtered view
 * can be shared and works without JavaScript (a GET form). Shared by the route's loader and its page.
 */

/** The newsroom list's address. */
export const NEWSROOM_PATH = href("/redacao");

/** The status filter's values (`?situacao=`), as the public list's newsroom filter spells them. */
export const NEWSROOM_STATUS_FILTERS = {
  todas: null,
  publicadas: "published",
  agendadas: "scheduled",
  "em-revisao": "review",
  rascunhos: "draft",
  /** The Lixeira: the stories moved to the trash (they are drafts; the other filters leave them out). */
  lixeira: null,
} as const satisfies Record<string, NewsStatus | null>;
export type NewsroomStatusFilter = keyof typeof NEWSROOM_STATUS_FILTERS;

/** The sort (`?ordem=`): by publication date (default) or by the last update, newest first either way. */
export type NewsroomSort = "publicacao" | "atualizacao";

/** The list's bulk actions (the form's `intent`): the list's own, then the Lixeira's. */
export type BulkAction = "publish" | "unpublish" | "delete" | "restore" | "erase";
export const BULK_ACTIONS: readonly BulkAction[] = ["publish", "unpublish", "delete", "restore", "erase"];
/** The actions the list offers: on the stories, or in the Lixeira on the trashed ones. */
export const LIST_ACTIONS: readonly BulkAction[] = ["publish", "unpublish", "delete"];
export const TRASH_ACTIONS: readonly BulkAction[] = ["restore", "erase"];
export const isBulkAction = (value: unknown): value is BulkAction => (BULK_ACTIONS as readonly unknown[]).includes(value);

export interface NewsroomQuery {
  q: string;
  situacao: NewsroomStatusFilter;
  /** Category and author slugs ("" for any). */
  categoria: string;
  autor: string;
  /** Dates (YYYY-MM-DD, the site's clock) bounding the sorted column: from the start of `de` to the end of `ate`. */
  de: string;
  ate: string;
  ordem: NewsroomSort;
  cursor: string | null;
}

export const DEFAULT_NEWSROOM_QUERY: NewsroomQuery = {
  q: "",
  situacao: "todas",
  categoria: "",
  autor: "",
  de: "",
  ate: "",
  ordem: "publicacao",
  cursor: null,
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const isDate = (value: string) => {
  if (!DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
};

/**
 * The query of a list URL. Unknown values fall back to the defaults; a date that is not a real YYYY-MM-DD day is
 * dropped and reported (`invalidDate`), so the page can say so.
 */
export function parseNewsroomQuery(params: URLSearchParams): { query: NewsroomQuery; invalidDate: boolean } {
  const situacao = params.get("situacao") ?? "";
  const slug = (value: string | null) => (value && value.length <= 123 && SLUG.test(value) ? value : "");
  let invalidDate = false;
  const date = (value: string | null) => {
    if (!value) return "";
    if (isDate(value)) return value;
    invalidDate = true;
    return "";
  };
  const query: NewsroomQuery = {
    q: (params.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH),
    situacao: Object.hasOwn(NEWSROOM_STATUS_FILTERS, situacao) ? (situacao as NewsroomStatusFilter) : "todas",
    categoria: slug(params.get("categoria")),
    autor: slug(params.get("autor")),
    de: date(params.get("de")),
    ate: date(params.get("ate")),
    ordem: params.get("ordem") === "atualizacao" ? "atualizacao" : "publicacao",
    cursor: params.get("cursor") || null,
  };
  return { query, invalidDate };
}

/** The URL query ("?…", or "" for the defaults) of a list view, optionally from a cursor. */
export function newsroomSearch(query: Omit<NewsroomQuery, "cursor">, cursor: string | null = null): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.situacao !== "todas") params.set("situacao", query.situacao);
  if (query.categoria) params.set("categoria", query.categoria);
  if (query.autor) params.set("autor", query.autor);
  if (query.de) params.set("de", query.de);
  if (query.ate) params.set("ate", query.ate);
  if (query.ordem !== "publicacao") params.set("ordem", query.ordem);
  if (cursor) params.set("cursor", cursor);
  const text = params.toString();
  return text ? `?${text}` : "";
}
