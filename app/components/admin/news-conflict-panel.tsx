import { useState } from "react";
import { formatDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import type { MergeChoice, MergeConflict, MergeField, MergeValue } from "#app/lib/news-merge.ts";
import type { NewsConflictCurrent } from "#app/lib/news-view.ts";
import buttons from "#app/components/ui/button.module.css";
import panel from "./news-conflict-panel.module.css";
import type { NewsFormPublication, NewsFormValues } from "./news-form.tsx";
import styles from "./news-form.module.css";

/** What a save based on an older version was answered with, and the fields the other save changed. */
export interface NewsConflict {
  changed: string[];
  current: NewsConflictCurrent;
  /** After "Salvar mesmo assim": the fields both editors changed differently, to choose from. */
  merge?: MergeConflict | undefined;
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

/**
 * The fields this editor changed from the version the form was opened on (what "Salvar mesmo assim" asks the server
 * to write; the server checks each against that version itself). The media: a new file, removing it, or its texts.
 */
export function fieldsChangedByMe(values: NewsFormValues, initial: NewsFormValues, media: { picked: boolean; removed: boolean }): MergeField[] {
  const changed: MergeField[] = [];
  for (const field of ["title", "subtitle", "category", "author"] as const) if (values[field].trim() !== initial[field].trim()) changed.push(field);
  if (JSON.stringify(values.body) !== JSON.stringify(initial.body)) changed.push("body");
  if (values.isHighlighted !== initial.isHighlighted) changed.push("isHighlighted");
  const mediaText = (["mediaDescription", "mediaCaption", "mediaCredit"] as const).some((field) => values[field].trim() !== initial[field].trim());
  if (media.picked || media.removed || mediaText) changed.push("media");
  return changed;
}

const FIELD_NAMES: Record<MergeField, string> = {
  title: t.newsForm.conflictFields.title!,
  subtitle: t.newsForm.conflictFields.subtitle!,
  body: t.newsForm.conflictFields.fullContent!,
  category: t.newsForm.conflictFields.category!,
  author: t.newsForm.conflictFields.author!,
  isHighlighted: t.newsForm.conflictFields.isHighlighted!,
  media: t.newsForm.conflictFields.media!,
};

function shown(value: MergeValue): string {
  if (typeof value === "boolean") return value ? t.newsForm.mergeYes : t.newsForm.mergeNo;
  if (typeof value === "string") return value;
  const label = t.newsForm.mergeMedia[value.kind] ?? value.kind;
  return value.name ? `${label}: ${value.name}` : label;
}

/**
 * Someone else saved first: nothing is lost, the editor sees what changed and reloads or saves anyway (only the
 * fields it changed). When both changed the same field, each such field shows both versions side by side (whose, and
 * when), and nothing is saved until one is chosen for every field.
 */
export function NewsConflictPanel({
  conflict,
  timeZone,
  onReload,
  onOverwrite,
  onChoose,
}: {
  conflict: NewsConflict;
  timeZone: string;
  onReload(): void;
  onOverwrite(): void;
  onChoose(choices: Partial<Record<MergeField, MergeChoice>>): void;
}) {
  const [choices, setChoices] = useState<Partial<Record<MergeField, MergeChoice>>>({});
  const merge = conflict.merge;
  if (merge) {
    const complete = merge.fields.every((field) => choices[field.field]);
    const theirs = t.newsForm.mergeOther(merge.savedBy, formatDateTime(merge.savedAt, timeZone));
    return (
      <div className={styles.conflict} role="alert" data-testid="merge-conflict">
        <p>
          <strong>{t.newsForm.mergeConflict}</strong>
        </p>
        <div className={panel.fields}>
          {merge.fields.map(({ field, mine, theirs: other }) => (
            <fieldset key={field} className={panel.field} data-testid={`merge-field-${field}`}>
              <legend>{FIELD_NAMES[field]}</legend>
              <div className={panel.sides}>
                {(
                  [
                    ["mine", t.newsForm.mergeMine, mine, t.newsForm.mergeKeepMine],
                    ["theirs", theirs, other, t.newsForm.mergeKeepTheirs],
                  ] as const
                ).map(([side, whose, value, keep]) => (
                  <div key={side} className={panel.side} data-testid={`merge-${side}`}>
                    <span className={panel.who}>{whose}</span>
                    <p className={panel.value}>{shown(value)}</p>
                    <label>
                      <input
                        type="radio"
                        name={`escolha-${field}`}
                        value={side}
                        checked={choices[field] === side}
                        onChange={() => setChoices((previous) => ({ ...previous, [field]: side }))}
                      />{" "}
                      {keep}
                    </label>
                  </div>
                ))}
              </div>
            </fieldset>
          ))}
        </div>
        {complete ? null : <p className={styles.hint}>{t.newsForm.mergeChooseAll}</p>}
        <div className={styles.conflictActions}>
          <button type="button" className={buttons.secondary} onClick={onReload}>
            {t.newsForm.conflictReload}
          </button>
          <button type="button" className={buttons.primary} disabled={!complete} onClick={() => onChoose(choices)}>
            {t.newsForm.mergeSave}
          </button>
        </div>
      </div>
    );
  }
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
