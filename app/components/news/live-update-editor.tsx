import { lazy, Suspense } from "react";
import { t } from "#app/i18n/newsroom.ts";
import type { LiveEventType, LiveUpdateView } from "#app/lib/live-coverage.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import styles from "./live-coverage.module.css";
import { LiveMatchFields } from "./live-match-fields.tsx";

/**
 * The news body's rich-text editor (Tiptap), a chunk of its own downloaded only by the newsroom's live controls
 * (the panel that holds the composer is a lazy chunk already: readers never load either).
 */
const BodyEditor = lazy(() => import("#app/components/admin/body-editor.tsx"));

/** An update as the newsroom writes it: its document, the match minute as typed ("45+2") and the event ("" for none). */
export interface LiveUpdateFields {
  doc: RichDoc;
  minute: string;
  eventType: LiveEventType | "";
}

/** What the server refused, per field (the API's `error.fields`): the text, the minute, the event. */
export type LiveUpdateFieldErrors = Partial<Record<"text" | "minute" | "eventType", string>>;

/** An update with nothing in it: the composer's start, and after each post. */
export const EMPTY_UPDATE: LiveUpdateFields = { doc: { type: "doc", content: [{ type: "paragraph" }] }, minute: "", eventType: "" };

/** An update being edited, as the fields hold it. */
export function fieldsOf(update: Pick<LiveUpdateView, "body" | "minute" | "eventType">): LiveUpdateFields {
  return { doc: update.body, minute: update.minute ?? "", eventType: update.eventType ?? "" };
}

/** The fields as the JSON API takes them (POST and PATCH /api/news/:id/updates): "" is none (null). */
export function bodyOf(fields: LiveUpdateFields): { text: RichDoc; minute: string | null; eventType: LiveEventType | null } {
  return { text: fields.doc, minute: fields.minute.trim() === "" ? null : fields.minute, eventType: fields.eventType || null };
}

/** The refusal's fields (`error.fields` of a 400), one message each. */
export function fieldErrorsOf(fields: Record<string, string[]> | undefined): LiveUpdateFieldErrors {
  const first = (name: string) => fields?.[name]?.[0];
  return { text: first("text"), minute: first("minute"), eventType: first("eventType") };
}

interface LiveUpdateEditorProps {
  /** The fields' ids start with it. */
  id: string;
  value: LiveUpdateFields;
  onChange(value: LiveUpdateFields): void;
  /**
   * The editor reads its document once: a new key opens it again on `value.doc` (the composer emptied after a post,
   * a draft restored).
   */
  editorKey?: number | string;
  errors: LiveUpdateFieldErrors;
  disabled: boolean;
  /** The label is seen (the composer) or only heard (an update edited in place, under its own text). */
  labelHidden?: boolean;
  /** The editable area's test id (the news form's editor on the edit page is "body-editor"). */
  testId?: string;
}

/**
 * An update's content, the same when composing a new one (live-newsroom.tsx) and when editing one
 * (live-update-actions.tsx): one component, one formatting. The match minute and the event (gol, cartão…) in one
 * row, then the news body's rich-text editor: paragraphs, subheads, bold, italic, links, lists, quotes, and an image
 * (uploaded with its description) or a post of YouTube, Instagram, X or TikTok; the server holds an update to the
 * body's rules with one image or embed at most. A refusal is said under the field it concerns.
 */
export function LiveUpdateEditor({ id, value, onChange, editorKey, errors, disabled, labelHidden = false, testId }: LiveUpdateEditorProps) {
  const labelId = `${id}-rotulo`;
  const hintId = `${id}-dica`;
  const errorId = `${id}-erro`;
  return (
    <div className={styles.updateEditor}>
      <LiveMatchFields
        id={id}
        texts={t.liveNewsroom}
        value={{ minute: value.minute, eventType: value.eventType }}
        onChange={(match) => onChange({ ...value, ...match })}
        errors={{ minute: errors.minute, eventType: errors.eventType }}
        disabled={disabled}
      />
      <span id={labelId} className={labelHidden ? "visually-hidden" : styles.fieldLabel}>
        {t.liveNewsroom.textLabel}
      </span>
      <div className={styles.editBox} data-testid="live-update-editor">
        <Suspense fallback={<div className={styles.editorLoading} aria-hidden="true" />}>
          <BodyEditor
            key={editorKey}
            initial={value.doc}
            onChange={(doc) => onChange({ ...value, doc })}
            labelId={labelId}
            errorId={errors.text ? errorId : labelHidden ? undefined : hintId}
            invalid={Boolean(errors.text)}
            disabled={disabled}
            {...(testId ? { testId } : {})}
          />
        </Suspense>
      </div>
      {labelHidden ? null : (
        <p id={hintId} className={styles.hint}>
          {t.liveNewsroom.editorHint}
        </p>
      )}
      {errors.text ? (
        <p id={errorId} className={styles.error} role="alert">
          {errors.text}
        </p>
      ) : null}
    </div>
  );
}
