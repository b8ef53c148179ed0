import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useLocation, useNavigate, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/newsroom";
import { noindexMeta } from "../../lib/seo.ts";
import { servicesOf } from "../../.server/context.server.ts";
import { requireRole } from "../../.server/auth/guards.server.ts";
import { AppError, publicErrorMessage, requestIdFrom } from "../../.server/errors.ts";
import { readsLastWeekOf } from "../../.server/news/most-read.server.ts";
import type { NewsroomRow } from "../../.server/news/newsroom-list.server.ts";
import {
  BULK_ACTIONS,
  type BulkAction,
  isBulkAction,
  NEWSROOM_STATUS_FILTERS,
  type NewsroomStatusFilter,
  newsroomSearch,
  parseNewsroomQuery,
} from "../../lib/newsroom-query.ts";
import { Banner } from "../../components/admin/banner.tsx";
import { ConfirmDialog } from "../../components/admin/confirm-dialog.tsx";
import buttons from "../../components/ui/button.module.css";
import { formatDateTime } from "../../i18n/format.ts";
import { t } from "../../i18n/newsroom.ts";
import { NEWSROOM_BULK_MAX } from "../../lib/limits.ts";
import { routeFacts } from "../../lib/route-facts.ts";
import { articlePath } from "../../lib/slug.ts";
import styles from "./newsroom.module.css";

export function meta() {
  return noindexMeta(t.newsroom.metaTitle);
}

const PATH = "/redacao";

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
      terms,
      done,
      error: null as string | null,
    };
  } catch (error) {
    const expected = error instanceof AppError && error.status < 500;
    if (!expected) log.error({ err: error, reqId: requestIdFrom(request) }, "newsroom list load failed");
    const message = expected ? (error.code === "invalid_cursor" ? t.newsroom.invalidCursor : error.message) : t.newsroom.loadFailed;
    return data(
      { query, rows: [] as ReturnType<typeof viewOf>[], reads: null, nextCursor: null, terms, done: null, error: message as string | null },
      { status: expected ? 400 : 500 },
    );
  }
}

/** A row as the page shows it: dates formatted on the site's clock. */
function viewOf(row: NewsroomRow, timeZone: string) {
  return { ...row, published: formatDateTime(row.publishedAt, timeZone), updated: formatDateTime(row.updatedAt, timeZone) };
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
      const rows = await database.db.selectFrom("news").select(["id", "title"]).where("id", "in", ids).execute();
      return { confirm: { action, ids, titles: rows.map((row) => row.title) }, error: null };
    }
    const result = await newsEditor.bulkAction(action, ids, viewer);
    throw redirect(backTo(new URL(request.url), { action, ...result }));
  } catch (error) {
    if (error instanceof Response) throw error;
    const status = error instanceof AppError ? error.status : 500;
    if (status >= 500) log.error({ err: error, reqId: requestIdFrom(request) }, "newsroom bulk action failed");
    return data({ confirm: null, error: publicErrorMessage(error, requestIdFrom(request)) }, { status });
  }
}

const STATUS_KEYS = Object.keys(NEWSROOM_STATUS_FILTERS) as NewsroomStatusFilter[];

export default function Newsroom({ loaderData, actionData }: Route.ComponentProps) {
  const { query, rows, reads, nextCursor, terms, done, error } = loaderData;
  const location = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const submit = useSubmit();
  const navigate = useNavigate();
  const bulkForm = useRef<HTMLFormElement>(null);
  const askedFrom = useRef<HTMLButtonElement | null>(null);
  const [asking, setAsking] = useState<{ action: BulkAction; data: FormData; count: number } | null>(null);
  // The "select all" box needs JavaScript: without it, it is not shown.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const confirm = actionData?.confirm ?? null;
  const actionError = actionData?.error ?? null;
  const postTo = `${PATH}${location.search}`;
  const hasFilters = newsroomSearch(query) !== "";

  return (
    <section className="page">
      <h1 className="page-title">{t.newsroom.title}</h1>
      <p className={styles.intro}>{t.newsroom.intro}</p>
      {done ? <Banner kind="success" message={done} /> : null}
      {error ? <Banner kind="error" message={error} /> : null}
      {actionError ? <Banner kind="error" message={actionError} /> : null}

      {confirm ? (
        <div className={styles.confirm} role="alert" data-testid="bulk-confirm">
          <h2>{t.newsroom.confirmTitle[confirm.action](confirm.ids.length)}</h2>
          <p>{t.newsroom.confirmText[confirm.action]}</p>
          {confirm.titles.length > 0 ? (
            <>
              <p>{t.newsroom.confirmSelected}</p>
              <ul>
                {confirm.titles.map((title, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: titles may repeat; the list is fixed for this render.
                  <li key={index}>{title}</li>
                ))}
              </ul>
            </>
          ) : null}
          <Form method="post" action={postTo} className={styles.confirmActions}>
            <input type="hidden" name="intent" value={confirm.action} />
            <input type="hidden" name="confirmed" value="1" />
            {confirm.ids.map((id) => (
              <input key={id} type="hidden" name="id" value={id} />
            ))}
            <button type="submit" className={confirm.action === "delete" ? `${buttons.primary} ${styles.danger}` : buttons.primary} disabled={busy}>
              {t.newsroom.confirm[confirm.action]}
            </button>
            <Link to={postTo} className={buttons.secondary}>
              {t.newsroom.cancel}
            </Link>
          </Form>
        </div>
      ) : null}

      <Form
        // A new view (a link, back, "Limpar filtros") fills the fields anew from its URL.
        key={newsroomSearch(query)}
        method="get"
        action={PATH}
        className={styles.filters}
        aria-label={t.newsroom.filtersTitle}
        data-testid="newsroom-filters"
        onSubmit={(event) => {
          // With JavaScript, the URL keeps only the filters that are set (without it, the browser sends every field).
          event.preventDefault();
          const fields = new URLSearchParams();
          for (const [key, value] of new FormData(event.currentTarget)) fields.append(key, String(value));
          navigate(`${PATH}${newsroomSearch(parseNewsroomQuery(fields).query)}`);
        }}
      >
        <div className={`${styles.field} ${styles.wide}`}>
          <label htmlFor="redacao-q">{t.newsroom.search}</label>
          <input id="redacao-q" type="search" name="q" defaultValue={query.q} placeholder={t.newsroom.searchPlaceholder} />
        </div>
        <FilterSelect
          name="situacao"
          label={t.newsroom.status}
          value={query.situacao}
          options={STATUS_KEYS.map((key) => ({ value: key, label: t.newsroom.statusFilter[key] }))}
        />
        <FilterSelect
          name="categoria"
          label={t.newsroom.category}
          value={query.categoria}
          options={[{ value: "", label: t.newsroom.anyCategory }, ...terms.categories.map((term) => ({ value: term.slug, label: term.name }))]}
        />
        <FilterSelect
          name="autor"
          label={t.newsroom.author}
          value={query.autor}
          options={[{ value: "", label: t.newsroom.any }, ...terms.authors.map((term) => ({ value: term.slug, label: term.name }))]}
        />
        <FilterSelect
          name="ordem"
          label={t.newsroom.sort}
          value={query.ordem}
          options={(["publicacao", "atualizacao"] as const).map((key) => ({ value: key, label: t.newsroom.sortBy[key] }))}
        />
        <div className={styles.field}>
          <label htmlFor="redacao-de">{t.newsroom.from}</label>
          <input id="redacao-de" type="date" name="de" defaultValue={query.de} />
        </div>
        <div className={styles.field}>
          <label htmlFor="redacao-ate">{t.newsroom.until}</label>
          <input id="redacao-ate" type="date" name="ate" defaultValue={query.ate} />
        </div>
        <div className={styles.filterActions}>
          <button type="submit" className={buttons.primary}>
            {t.newsroom.apply}
          </button>
          {hasFilters ? (
            <Link to={PATH} className={buttons.secondary}>
              {t.newsroom.clear}
            </Link>
          ) : null}
        </div>
      </Form>

      <Form
        method="post"
        action={postTo}
        ref={bulkForm}
        data-testid="newsroom-bulk"
        onSubmit={(event) => {
          // With JavaScript, a dialog asks first; without it, the server answers with a confirmation step.
          const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          const action = submitter?.value as BulkAction | undefined;
          if (!isBulkAction(action)) return;
          const formData = new FormData(event.currentTarget, submitter);
          const count = formData.getAll("id").length;
          // Nothing selected or too many: the server's answer says so.
          if (count === 0 || count > NEWSROOM_BULK_MAX) return;
          event.preventDefault();
          askedFrom.current = submitter;
          setAsking({ action, data: formData, count });
        }}
      >
        <fieldset className={styles.bulkBar}>
          <legend className="visually-hidden">{t.newsroom.bulkTitle}</legend>
          <span className={styles.bulkHint}>{t.newsroom.bulkHint}</span>
          {BULK_ACTIONS.map((action) => (
            <button
              key={action}
              type="submit"
              name="intent"
              value={action}
              className={action === "delete" ? `${buttons.secondary} ${styles.dangerOutline}` : buttons.secondary}
              disabled={busy}
            >
              {t.newsroom.bulk[action]}
            </button>
          ))}
        </fieldset>

        {rows.length === 0 ? (
          <p className={styles.empty}>{t.newsroom.empty}</p>
        ) : (
          <table className={styles.table} data-testid="newsroom-table">
            <caption className="visually-hidden">{t.newsroom.resultsLabel}</caption>
            <thead>
              <tr>
                <th scope="col" className={styles.check}>
                  {hydrated ? (
                    <input
                      type="checkbox"
                      aria-label={t.newsroom.selectAll}
                      onChange={(event) => {
                        for (const box of bulkForm.current?.querySelectorAll<HTMLInputElement>('input[name="id"]') ?? []) {
                          box.checked = event.currentTarget.checked;
                        }
                      }}
                    />
                  ) : (
                    <span className="visually-hidden">{t.newsroom.columns.select}</span>
                  )}
                </th>
                <th scope="col">{t.newsroom.columns.title}</th>
                <th scope="col">{t.newsroom.columns.status}</th>
                <th scope="col">{t.newsroom.columns.author}</th>
                <th scope="col">{t.newsroom.columns.category}</th>
                <th scope="col" aria-sort={query.ordem === "publicacao" ? "descending" : undefined}>
                  {t.newsroom.columns.published}
                </th>
                <th scope="col" aria-sort={query.ordem === "atualizacao" ? "descending" : undefined}>
                  {t.newsroom.columns.updated}
                </th>
                {reads ? <th scope="col">{t.newsroom.columns.reads}</th> : null}
                <th scope="col">{t.newsroom.columns.actions}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="newsroom-row" data-id={row.id} data-status={row.status}>
                  <td className={styles.check}>
                    <input type="checkbox" name="id" value={row.id} aria-label={t.newsroom.selectOne(row.title)} />
                  </td>
                  <td className={styles.title}>{row.title}</td>
                  <td>
                    <span className={`${styles.badge} ${styles[row.status]}`}>{t.newsroom.statusBadge[row.status]}</span>
                  </td>
                  <td data-label={t.newsroom.columns.author}>{row.author}</td>
                  <td data-label={t.newsroom.columns.category}>{row.category}</td>
                  <td data-label={row.status === "scheduled" ? t.newsroom.columns.scheduled : t.newsroom.columns.published}>{row.published}</td>
                  <td data-label={t.newsroom.columns.updated}>{row.updated}</td>
                  {reads ? <td data-label={t.newsroom.columns.reads}>{t.newsroom.reads(reads[row.id] ?? 0)}</td> : null}
                  <td className={styles.actions}>
                    <Link to={`/edit-news/${encodeURIComponent(row.id)}`} aria-label={t.newsroom.editLabel(row.title)}>
                      {t.newsroom.edit}
                    </Link>
                    <Link to={articlePath({ id: row.id, title: row.title })} aria-label={t.newsroom.viewLabel(row.title)}>
                      {t.newsroom.view}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Form>

      <nav className={styles.paging} aria-label={t.newsroom.resultsLabel}>
        {query.cursor ? <Link to={`${PATH}${newsroomSearch(query)}`}>{t.newsroom.firstPage}</Link> : null}
        {nextCursor ? (
          <Link to={`${PATH}${newsroomSearch(query, nextCursor)}`} className={buttons.secondary} data-testid="newsroom-older">
            {t.newsroom.older}
          </Link>
        ) : null}
      </nav>

      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={asking ? t.newsroom.confirmTitle[asking.action](asking.count) : ""}
        text={asking ? t.newsroom.confirmText[asking.action] : ""}
        confirmLabel={asking ? t.newsroom.confirm[asking.action] : ""}
        cancelLabel={t.newsroom.cancel}
        danger={asking?.action === "delete"}
        onConfirm={() => {
          if (!asking) return;
          asking.data.set("confirmed", "1");
          submit(asking.data, { method: "post", action: postTo });
        }}
        testId="bulk-dialog"
        returnFocusTo={askedFrom}
      />
    </section>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Editors and admins: the list of every story and its bulk publish, unpublish and delete. */
export const handle = routeFacts({ cache: false, uploads: false, role: "editor" });

/** One of the filters' choices: its label and select (the select's id is `redacao-<name>`). */
function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={`redacao-${name}`}>{label}</label>
      <select id={`redacao-${name}`} name={name} defaultValue={value}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
