import { useEffect, useRef, useState } from "react";
import { Form, useSubmit } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import { NEWSROOM_BULK_MAX } from "#app/lib/limits.ts";
import { type BulkAction, isBulkAction, type NewsroomSort } from "#app/lib/newsroom-query.ts";
import buttons from "#app/components/ui/button.module.css";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import styles from "./newsroom.module.css";
import { NewsroomTable, type NewsroomRowView } from "./newsroom-table.tsx";

/**
 * The newsroom list's bulk form: the action buttons (publish, unpublish, delete; in the Lixeira restore and erase)
 * over the stories' table, posted to
 * `postTo` (the list's URL, so the answer keeps its filters). With JavaScript a dialog asks first; without it, the
 * server answers with a confirmation step. Nothing selected or too many: the server's answer says so.
 */
export function NewsroomBulkForm({
  rows,
  actions,
  emptyText,
  reads,
  sort,
  sortHref,
  postTo,
  busy,
}: {
  rows: readonly NewsroomRowView[];
  /** The buttons, in order (LIST_ACTIONS or TRASH_ACTIONS). */
  actions: readonly BulkAction[];
  /** What an empty list says. */
  emptyText: string;
  reads: Record<string, number> | null;
  sort: NewsroomSort;
  sortHref: (sort: NewsroomSort) => string;
  postTo: string;
  busy: boolean;
}) {
  const submit = useSubmit();
  const bulkForm = useRef<HTMLFormElement>(null);
  const askedFrom = useRef<HTMLButtonElement | null>(null);
  const [asking, setAsking] = useState<{ action: BulkAction; data: FormData; count: number } | null>(null);
  // The "select all" box needs JavaScript: without it, it is not shown.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <>
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
          {actions.map((action) => (
            <button
              key={action}
              type="submit"
              name="intent"
              value={action}
              className={action === "delete" || action === "erase" ? `${buttons.secondary} ${styles.dangerOutline}` : buttons.secondary}
              disabled={busy}
            >
              {t.newsroom.bulk[action]}
            </button>
          ))}
        </fieldset>

        {rows.length === 0 ? (
          <p className={styles.empty}>{emptyText}</p>
        ) : (
          <NewsroomTable rows={rows} reads={reads} sort={sort} sortHref={sortHref} form={bulkForm} selectAll={hydrated} />
        )}
      </Form>

      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={asking ? t.newsroom.confirmTitle[asking.action](asking.count) : ""}
        text={asking ? t.newsroom.confirmText[asking.action] : ""}
        confirmLabel={asking ? t.newsroom.confirm[asking.action] : ""}
        cancelLabel={t.newsroom.cancel}
        danger={asking?.action === "delete" || asking?.action === "erase"}
        onConfirm={() => {
          if (!asking) return;
          asking.data.set("confirmed", "1");
          submit(asking.data, { method: "post", action: postTo });
        }}
        testId="bulk-dialog"
        returnFocusTo={askedFrom}
      />
    </>
  );
}
