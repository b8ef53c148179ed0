import { Form, Link, useNavigate } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import {
  NEWSROOM_PATH,
  NEWSROOM_STATUS_FILTERS,
  type NewsroomQuery,
  type NewsroomStatusFilter,
  newsroomSearch,
  parseNewsroomQuery,
} from "#app/lib/newsroom-query.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./newsroom.module.css";

const STATUS_KEYS = Object.keys(NEWSROOM_STATUS_FILTERS) as NewsroomStatusFilter[];

/** A category's or an author's choice: its slug and name. */
interface Term {
  slug: string;
  name: string;
}

/**
 * The newsroom list's filters: a GET form (works without JavaScript); with it, the URL keeps only the filters that
 * are set. "Limpar filtros" when any is.
 */
export function NewsroomFilters({ query, terms }: { query: NewsroomQuery; terms: { categories: readonly Term[]; authors: readonly Term[] } }) {
  const navigate = useNavigate();
  return (
    <Form
      // A new view (a link, back, "Limpar filtros") fills the fields anew from its URL.
      key={newsroomSearch(query)}
      method="get"
      action={NEWSROOM_PATH}
      className={styles.filters}
      aria-label={t.newsroom.filtersTitle}
      data-testid="newsroom-filters"
      onSubmit={(event) => {
        // With JavaScript, the URL keeps only the filters that are set (without it, the browser sends every field).
        event.preventDefault();
        const fields = new URLSearchParams();
        for (const [key, value] of new FormData(event.currentTarget)) fields.append(key, String(value));
        navigate(`${NEWSROOM_PATH}${newsroomSearch(parseNewsroomQuery(fields).query)}`);
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
        {newsroomSearch(query) !== "" ? (
          <Link to={NEWSROOM_PATH} className={buttons.secondary}>
            {t.newsroom.clear}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

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
