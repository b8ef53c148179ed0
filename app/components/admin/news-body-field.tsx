import { lazy, Suspense, useEffect, useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { docToPlainText, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import styles from "./news-form.module.css";

/** The editor and Tiptap behind it: a chunk of their own, downloaded only when the newsroom's form shows. */
const BodyEditor = lazy(() => import("./body-editor.tsx"));

interface NewsBodyFieldProps {
  formId: string;
  body: RichDoc;
  onChange(body: RichDoc): void;
  error: string | undefined;
  disabled: boolean;
}

/**
 * The news body. Without JavaScript (and until the editor's chunk arrives) it is a textarea of plain text named
 * `fullContent` (a blank line between paragraphs), which the server turns into paragraphs; a save that leaves that
 * text as it was keeps the formatting the body had (news-form-action.server.ts). With JavaScript the rich-text
 * editor takes its place and the form sends the structured `body`.
 */
export function NewsBodyField({ formId, body, onChange, error, disabled }: NewsBodyFieldProps) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [text, setText] = useState(() => docToPlainText(body));
  const id = `${formId}-fullContent`;
  const labelId = `${id}-rotulo`;
  const errorId = error ? `${id}-erro` : undefined;
  const rows = Math.min(20, Math.max(8, text.split("\n").length + 1));
  const textarea = (
    <>
      <textarea
        id={id}
        name="fullContent"
        rows={rows}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onChange(plainTextToDoc(event.target.value));
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-dica${errorId ? ` ${errorId}` : ""}`}
        disabled={disabled}
      />
      <p id={`${id}-dica`} className={styles.hint}>
        {t.richText.noScriptHint}
      </p>
    </>
  );
  return (
    <div className={styles.field}>
      <label id={labelId} htmlFor={id}>
        {t.newsForm.fullContent}
      </label>
      {hydrated ? (
        <Suspense fallback={textarea}>
          <BodyEditor initial={body} onChange={onChange} labelId={labelId} errorId={errorId} invalid={Boolean(error)} disabled={disabled} />
        </Suspense>
      ) : (
        textarea
      )}
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
