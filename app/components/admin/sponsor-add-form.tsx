import { ImagePlus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import { checkSponsorImageFile } from "#app/lib/news-schema.ts";
import type { SponsorActionResult } from "#app/lib/sponsor-schema.ts";
import buttons from "#app/components/ui/button.module.css";
import { Banner } from "./banner.tsx";
import panel from "./panel.module.css";
import { SponsorFieldInputs } from "./sponsor-fields.tsx";
import styles from "./sponsor-manager.module.css";

/**
 * "Novo patrocinador": the logo (picked or dropped, checked and previewed in the browser) and the fields. A submit
 * without a logo, or with the media store not connected, is stopped here with the reason; after a successful add
 * (`result`, once the page is `idle`) the form is cleared.
 */
export function SponsorAddForm({
  result,
  adding,
  idle,
  storeConnected,
  storeProblem,
}: {
  /** The last answer, when it was about this form. */
  result: SponsorActionResult | null;
  adding: boolean;
  idle: boolean;
  storeConnected: boolean;
  /** Why a logo cannot be stored while the store is not connected (the store's own message). */
  storeProblem: string;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const errors = result?.fields ?? {};

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // After a successful add, clear the form.
  useEffect(() => {
    if (result?.ok && idle) {
      setFile(null);
      formRef.current?.reset();
    }
  }, [result, idle]);

  function clear() {
    setFile(null);
    if (inputRef.current) inputRef.current.value = "";
  }

  return (
    <section className={panel.panel} aria-labelledby="novo-patrocinador">
      <h2 id="novo-patrocinador">{t.sponsors.addTitle}</h2>
      {result?.error ? <Banner kind="error" message={result.error} /> : null}
      {result?.ok && !adding ? <Banner kind="success" message={result.ok} /> : null}
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className={styles.addForm}
        noValidate
        onSubmit={(event) => {
          if (!file) {
            event.preventDefault();
            setProblem(t.sponsors.imageRequired);
          } else if (!storeConnected) {
            event.preventDefault();
            setProblem(storeProblem);
          }
        }}
      >
        <input type="hidden" name="intent" value="add" />
        <label className={styles.drop} data-has-file={Boolean(preview)}>
          <input
            ref={inputRef}
            type="file"
            name="image"
            accept="image/*"
            className={styles.fileInput}
            onChange={(event) => {
              const picked = event.target.files?.[0] ?? null;
              const error = picked ? checkSponsorImageFile(picked) : null;
              setProblem(error);
              if (error) {
                event.target.value = "";
                setFile(null);
              } else setFile(picked);
            }}
          />
          {preview ? (
            <img src={preview} alt="" className={styles.preview} data-testid="sponsor-preview" />
          ) : (
            <>
              <ImagePlus aria-hidden="true" size={34} />
              <span className={styles.dropTitle}>{t.sponsors.pick}</span>
              <span className={styles.hint}>{t.sponsors.pickHint}</span>
            </>
          )}
        </label>
        {problem ? (
          <p className={styles.problem} role="alert">
            {problem}
          </p>
        ) : null}
        <SponsorFieldInputs idPrefix="novo" errorOf={(field) => errors[field]?.[0] ?? null} />
        <div className={styles.addActions}>
          {preview ? (
            <button type="button" className={buttons.secondary} onClick={clear}>
              <Trash2 aria-hidden="true" size={16} /> {t.sponsors.remove}
            </button>
          ) : null}
          <button type="submit" className={buttons.primary} disabled={!file || !storeConnected || adding}>
            {adding ? t.sponsors.adding : t.sponsors.add}
          </button>
        </div>
      </Form>
    </section>
  );
}
