import { data, Link, redirect, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/newsroom";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole, memberActor } from "#app/.server/auth/permissions.server.ts";
import { AppError, publicErrorMessage, requestIdFrom } from "#app/.server/errors.ts";
import { readsLastWeekOf } from "#app/.server/news/reads/most-read.server.ts";
import type { NewsroomRow } from "#app/.server/news/desk/newsroom-list.server.ts";
import {
  type BulkAction,
  isBulkAction,
  LIST_ACTIONS,
  NEWSROOM_PATH,
  newsroomSearch,
  parseNewsroomQuery,
  TRASH_ACTIONS,
} from "#app/lib/newsroom-query.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import buttons from "#app/components/ui/button.module.css";
import { formatDateTime } from "#app/i18n/format.ts";
import { listedPublicationDate } from "#app/lib/article-dates.ts";
import { t } from "#app/i18n/newsroom.ts";
import { NEWSROOM_BULK_MAX } from "#app/lib/limits.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { NewsroomBulkForm } from "#app/components/admin/newsroom-bulk-form.tsx";
import { NewsroomConfirmStep } from "#app/components/admin/newsroom-confirm-step.tsx";
import { NewsroomFilters } from "#app/components/admin/newsroom-filters.tsx";
import type { NewsroomRowView } from "#app/components/admin/newsroom-table.tsx";
import styles from "#app/components/admin/newsroom.module.css";
import { findNewsTitles } from "#app/.server/news/news.queries.server.ts";

export function meta() {
  return noindexMeta(t.newsroom.metaTitle);
}

const PATH = NEWSROOM_PATH;

/** The result of the last bulk action, from the URL the action redirected to (`?feito=publish&n=3&iguais=1`). */
function doneOf(params: URLSearchParams): string | null {
  const action = params.get("feito");
  if (!isBulkAction(action)) return null;
  const changed = Number(params.get("n") ?? 0);
  const unchanged = Number(params.get("iguais") ?? 0);
  const parts = [t.newsroom.done[action](Number.isSafeInteger(changed) ? changed : 0)];
  if (Number.isSafeInteger(unchanged) && unchanged > 0) parts.push(t.newsroom.unchanged[action](unchanged));
  return parts.filter(Boolean).join(" ");
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireRole(request, context, handle);
  const services = servicesOf(context);
  const { newsroom, log, config } = services;
  const params = new URL(request.url).searchParams;
  const done = doneOf(params);
  const terms = await newsroom.terms().catch((error: unknown) => {
    log.error({ err: error, reqId: requestIdFrom(request) }, "newsroom terms load failed");
    return { categories: [], authors: [] };
  });
  const { query, invalidDate } = parseNewsroomQuery(params);
  try {
    if (invalidDate) throw new AppError("invalid_date", t.newsroom.invalidDate, 400);
    const page = await newsroom.page(query);
    const reads = await readsLastWeekOf(
      page.rows.map((row) => row.id),
      services,
    ).catch(() => null);
    return {
      query,
      rows: page.rows.map((row) => viewOf(row, config.timeZone)),
      reads,
      nextCursor: page.nextCursor,
      total: page.total,
      start: page.start,
      terms,
      done,
      error: null as string | null,
    };
  } catch (error) {
    const expected = error instanceof AppError && error.status < 500;
    if (!expected) log.error({ err: error, reqId: requestIdFrom(request) }, "newsroom list load failed");
    const message = expected ? (error.code === "invalid_cursor" ? t.newsroom.invalidCursor : error.message) : t.newsroom.loadFailed;
    return data(
      {
        query,
        rows: [] as ReturnType<typeof viewOf>[],
        reads: null,
        nextCursor: null,
        total: 0,
        start: 1,
        terms,
        done: null,
        error: message as string | null,
      },
      { status: expected ? 400 : 500 },
    );
  }
}

/**
 * A row as the page shows it: dates formatted on the site's clock. A draft or a story in review has no publication
 * date to show (`listedPublicationDate`): its "Publicação" is empty.
 */
function viewOf(row: NewsroomRow, timeZone: string): NewsroomRowView {
  const published = listedPublicationDate(row);
  return {
    ...row,
    published: published ? formatDateTime(published, timeZone) : "",
    updated: formatDateTime(row.updatedAt, timeZone),
    deleted: row.deletedAt ? formatDateTime(row.deletedAt, timeZone) : "",
  };
}

/** The list's URL to go back to after an action: the same filters, from the first page, with the result. */
function backTo(url: URL, done: { action: BulkAction; changed: number; unchanged: number }): string {
  const { query } = parseNewsroomQuery(url.searchParams);
  const params = new URLSearchParams(newsroomSearch(query).slice(1));
  params.set("feito", done.action);
  params.set("n", String(done.changed));
  if (done.unchanged) params.set("iguais", String(done.unchanged));
  return `${PATH}?${params}`;
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const { newsEditor, database, log } = servicesOf(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ids = [...new Set(form.getAll("id").map(String))].filter(Boolean);
  try {
    if (!isBulkAction(intent)) throw new AppError("invalid_intent", t.newsroom.unknownAction, 400);
    const action = intent;
    if (ids.length === 0) throw new AppError("bulk_empty", t.newsroom.noneSelected, 400);
    if (ids.length > NEWSROOM_BULK_MAX) throw new AppError("bulk_too_many", t.newsroom.tooMany, 400);
    // Without JavaScript, the first post comes back as a confirmation step (the dialog posts `confirmed` at once).
    if (form.get("confirmed") !== "1") {
      const titles = await findNewsTitles(database.db, ids);
      return { confirm: { action, ids, titles }, error: null };
    }
    const result = await newsEditor.bulkAction(action, ids, memberActor(viewer));
    throw redirect(backTo(new URL(request.url), { action, ...result }));
  } catch (error) {
    if (error instanceof Response) throw error;
    const status = error instanceof AppError ? error.status : 500;
    if (status >= 500) log.error({ err: error, reqId: requestIdFrom(request) }, "newsroom bulk action failed");
    return data({ confirm: null, error: publicErrorMessage(error, requestIdFrom(request)) }, { status });
  }
}

export default function Newsroom({ loaderData, actionData }: Route.ComponentProps) {
  const { query, rows, reads, nextCursor, total, start, terms, done, error } = loaderData;
  const location = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const confirm = actionData?.confirm ?? null;
  const actionError = actionData?.error ?? null;
  const postTo = `${PATH}${location.search}`;

  return (
    <section className="page">
      <h1 className="page-title">{t.newsroom.title}</h1>
      <p className={styles.intro}>{query.situacao === "lixeira" ? t.newsroom.trashIntro : t.newsroom.intro}</p>
      {done ? <Banner kind="success" message={done} /> : null}
      {error ? <Banner kind="error" message={error} /> : null}
      {actionError ? <Banner kind="error" message={actionError} /> : null}
      {confirm ? <NewsroomConfirmStep confirm={confirm} postTo={postTo} busy={busy} /> : null}
      <NewsroomFilters query={query} terms={terms} />
      {rows.length > 0 ? (
        <p className={styles.count} data-testid="newsroom-count" aria-live="polite">
          {t.newsroom.count(total, start, start + rows.length - 1)}
        </p>
      ) : null}
      <NewsroomBulkForm
        rows={rows}
        actions={query.situacao === "lixeira" ? TRASH_ACTIONS : LIST_ACTIONS}
        emptyText={query.situacao === "lixeira" ? t.newsroom.trashEmpty : t.newsroom.empty}
        reads={reads}
        sort={query.ordem}
        sortHref={(ordem) => `${PATH}${newsroomSearch({ ...query, ordem })}`}
        postTo={postTo}
        busy={busy}
      />
      <nav className={styles.paging} aria-label={t.newsroom.resultsLabel}>
        {query.cursor ? <Link to={`${PATH}${newsroomSearch(query)}`}>{t.newsroom.firstPage}</Link> : null}
        {nextCursor ? (
          <Link to={`${PATH}${newsroomSearch(query, nextCursor)}`} className={buttons.secondary} data-testid="newsroom-older">
            {t.newsroom.older}
          </Link>
        ) : null}
      </nav>
    </section>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Editors and admins: the list of every story and its bulk publish, unpublish and delete. */
export const handle = routeFacts({ cache: false, uploads: false, role: "editor" });
