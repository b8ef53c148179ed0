import type { RefObject } from "react";
import { href, Link } from "react-router";
import type { NewsroomRow } from "#app/.server/news/desk/newsroom-list.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import type { NewsroomSort } from "#app/lib/newsroom-query.ts";
import { articlePath } from "#app/lib/slug.ts";
import styles from "./newsroom.module.css";

/** A row as the page shows it: dates formatted on the site's clock. */
export type NewsroomRowView = NewsroomRow & { published: string; updated: string; deleted: string };

/**
 * The newsroom list's stories: a box to select each (the bulk form's `id`), title, status, author, category, dates
 * (the sorted one marked), the week's reads when known, and links to edit and view.
 */
export function NewsroomTable({
  rows,
  reads,
  sort,
  sortHref,
  form,
  selectAll,
}: {
  rows: readonly NewsroomRowView[];
  reads: Record<string, number> | null;
  sort: NewsroomSort;
  /** The list's address sorted by the other date (same filters, first page). */
  sortHref: (sort: NewsroomSort) => string;
  /** The bulk form the boxes belong to ("select all" checks them all). */
  form: RefObject<HTMLFormElement | null>;
  /** Whether to show the "select all" box (it needs JavaScript: not before the page is hydrated). */
  selectAll: boolean;
}) {
  return (
    <table className={styles.table} data-testid="newsroom-table">
      <caption className="visually-hidden">{t.newsroom.resultsLabel}</caption>
      <thead>
        <tr>
          <th scope="col" className={styles.check}>
            {selectAll ? (
              <input
                type="checkbox"
                aria-label={t.newsroom.selectAll}
                onChange={(event) => {
                  for (const box of form.current?.querySelectorAll<HTMLInputElement>('input[name="id"]') ?? []) {
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
          <SortHeader label={t.newsroom.columns.published} by="publicacao" sort={sort} sortHref={sortHref} />
          <SortHeader label={t.newsroom.columns.updated} by="atualizacao" sort={sort} sortHref={sortHref} />
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
            <td className={styles.title}>
              {/* In the Lixeira a story has no form to open until it is restored. */}
              {row.deletedAt ? (
                <span data-testid="newsroom-title">{row.title}</span>
              ) : (
                <Link to={href("/edit-news/:id", { id: row.id })} data-testid="newsroom-title">
                  {row.title}
                </Link>
              )}
            </td>
            <td>
              {row.deletedAt ? (
                <span className={`${styles.badge} ${styles.trashed}`} data-testid="newsroom-trashed">
                  {t.newsroom.trashedOn(row.deleted)}
                </span>
              ) : (
                <span className={`${styles.badge} ${styles[row.status]}`}>{t.newsroom.statusBadge[row.status]}</span>
              )}
              {row.correctedByReporter ? (
                <span className={`${styles.badge} ${styles.corrected}`} data-testid="newsroom-corrected">
                  {t.newsroom.correctedByReporter}
                </span>
              ) : null}
            </td>
            <td data-label={t.newsroom.columns.author}>{row.author}</td>
            <td data-label={t.newsroom.columns.category}>{row.category}</td>
            <td
              data-label={row.status === "scheduled" ? t.newsroom.columns.scheduled : t.newsroom.columns.published}
              data-testid="newsroom-published"
            >
              {row.published || (
                <>
                  <span aria-hidden="true">—</span>
                  <span className="visually-hidden">{t.newsroom.notPublished}</span>
                </>
              )}
            </td>
            <td data-label={t.newsroom.columns.updated}>{row.updated}</td>
            {reads ? <td data-label={t.newsroom.columns.reads}>{t.newsroom.reads(reads[row.id] ?? 0)}</td> : null}
            <td className={styles.actions}>
              {row.deletedAt ? null : (
                <>
                  <Link to={href("/edit-news/:id", { id: row.id })} aria-label={t.newsroom.editLabel(row.title)}>
                    {t.newsroom.edit}
                  </Link>
                  <Link to={articlePath({ id: row.id, title: row.title })} aria-label={t.newsroom.viewLabel(row.title)}>
                    {t.newsroom.view}
                  </Link>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A date column's header: the sorted one says so (aria-sort, an arrow), the other is a link that sorts by it (newest
 * first, the only order a newsroom asks for).
 */
function SortHeader({
  label,
  by,
  sort,
  sortHref,
}: {
  label: string;
  by: NewsroomSort;
  sort: NewsroomSort;
  sortHref: (sort: NewsroomSort) => string;
}) {
  return (
    <th scope="col" aria-sort={sort === by ? "descending" : "none"}>
      {sort === by ? (
        <span className={styles.sorted}>
          {label} <span aria-hidden="true">↓</span>
        </span>
      ) : (
        <Link to={sortHref(by)} className={styles.sortLink} title={t.newsroom.sortByColumn(label)} data-testid={`sort-${by}`}>
          {label}
        </Link>
      )}
    </th>
  );
}
