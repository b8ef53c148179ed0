import { Form, Link } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import type { BulkAction } from "#app/lib/newsroom-query.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./newsroom.module.css";

/** A bulk action waiting for its confirmation: which, on which stories, and their titles. */
export interface BulkConfirmation {
  action: BulkAction;
  ids: string[];
  titles: string[];
}

/**
 * Without JavaScript a bulk action's first post comes back as this step: what it will do, to which stories, and the
 * form that confirms it (posting `confirmed`), or a way back to the list (`postTo`).
 */
export function NewsroomConfirmStep({ confirm, postTo, busy }: { confirm: BulkConfirmation; postTo: string; busy: boolean }) {
  return (
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
        <button
          type="submit"
          className={confirm.action === "delete" || confirm.action === "erase" ? `${buttons.primary} ${styles.danger}` : buttons.primary}
          disabled={busy}
        >
          {t.newsroom.confirm[confirm.action]}
        </button>
        <Link to={postTo} className={buttons.secondary}>
          {t.newsroom.cancel}
        </Link>
      </Form>
    </div>
  );
}
