import { t } from "../../i18n/newsroom.ts";
import type { NewsConflictCurrent } from "../../lib/news-view.ts";
import buttons from "../ui/button.module.css";
import type { NewsFormPublication, NewsFormValues } from "./news-form.tsx";
import styles from "./news-form.module.css";

/** What a save based on an older version was answered with, and the fields the other save changed. */
export interface NewsConflict {
  changed: string[];
  current: NewsConflictCurrent;
}

/** What the other save changed, compared with the version the form was opened on (names as the panel shows them). */
export function changedFields(
  current: NewsConflictCurrent,
  initial: NewsFormValues,
  publication: NewsFormPublication | undefined,
  defaultAuthor: string,
): string[] {
  const names = t.newsForm.conflictFields;
  const changed: string[] = [];
  if (current.title !== initial.title) changed.push(names.title!);
  if (current.subtitle !== initial.subtitle) changed.push(names.subtitle!);
  if (JSON.stringify(current.body) !== JSON.stringify(initial.body)) changed.push(names.fullContent!);
  if (current.category !== initial.category) changed.push(names.category!);
  if (current.author !== (initial.author.trim() || defaultAuthor)) changed.push(names.author!);
  if (current.isHighlighted !== initial.isHighlighted) changed.push(names.isHighlighted!);
  if (publication && current.status !== publication.status) changed.push(names.status!);
  else if (publication && current.publishedAt !== publication.publishedAt) changed.push(names.publishedAt!);
  if (publication && current.mediaId !== publication.mediaId) changed.push(names.media!);
  return changed;
}

/** Someone else saved first: nothing is lost, the editor sees what changed and reloads or overwrites on purpose. */
export function NewsConflictPanel({ conflict, onReload, onOverwrite }: { conflict: NewsConflict; onReload(): void; onOverwrite(): void }) {
  return (
    <div className={styles.conflict} role="alert" data-testid="conflict">
      <p>
        <strong>{t.newsForm.conflict}</strong> {t.newsForm.conflictChanged(conflict.changed)}
      </p>
      <div className={styles.conflictActions}>
        <button type="button" className={buttons.secondary} onClick={onReload}>
          {t.newsForm.conflictReload}
        </button>
        <button type="button" className={buttons.primary} onClick={onOverwrite}>
          {t.newsForm.conflictOverwrite}
        </button>
      </div>
    </div>
  );
}
