import { href } from "react-router";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { isTikTokShortLink, parseEmbedUrl } from "#app/lib/embeds.ts";
import { NEWS_LIMITS, NEWS_MEDIA_MAX_BYTES } from "#app/lib/limits.ts";
import { type RichEmbed, type RichImage, safeHref } from "#app/lib/rich-text.ts";
import { t } from "#app/i18n/newsroom.ts";
import styles from "./body-editor.module.css";
import { cleanPaste } from "./clean-paste.ts";

/** What the image dialog inserts: the block's attributes plus the preview address (the editor's only, never saved). */
export type InsertedImage = RichImage["attrs"] & { previewSrc: string | null };

/**
 * A modal dialog (the native <dialog>: focus kept inside, Esc closes, the page behind inert) that fits a 375 px
 * screen, open while it is mounted (the editor mounts it only then: no hidden copy of its fields in the page);
 * closing (Esc, "Cancelar") calls `onClose`. Rendered at the end of <body>, outside the
 * news form: its own form's Enter and submit never reach the news form (in the DOM; in React the submit event is
 * stopped by each dialog's handler).
 */
function Dialog({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return createPortal(
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className={styles.dialogTitle}>
        {title}
      </h2>
      {children}
    </dialog>,
    document.body,
  );
}

/**
 * An address field of a dialog (the link's, the embed's): its label, hint and error tied to it (`${id}-url`, the id
 * the dialog moves the focus to when the address is refused).
 */
function UrlField({
  id,
  label,
  hint,
  value,
  onChange,
  error,
  autoComplete,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange(value: string): void;
  error: string | null;
  autoComplete?: "off";
}) {
  return (
    <div className={styles.dialogField}>
      <label htmlFor={`${id}-url`}>{label}</label>
      <input
        id={`${id}-url`}
        type="url"
        inputMode="url"
        autoComplete={autoComplete}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-url-dica${error ? ` ${id}-url-erro` : ""}`}
        required
      />
      <p id={`${id}-url-dica`} className={styles.dialogHint}>
        {hint}
      </p>
      {error ? (
        <p id={`${id}-url-erro`} className={styles.dialogError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Sends the image to POST /api/media with the upload's progress; resolves with the new media item. */
function uploadImage(file: File, onProgress: (percent: number | "processing") => void): Promise<{ id: string; src: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", href("/api/media"));
    request.responseType = "json";
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.upload.onload = () => onProgress("processing");
    request.onerror = () => reject(new Error(blocksText.uploadFailed));
    request.onload = () => {
      const answer = request.response as { id?: string; src?: string; error?: { message?: string } } | null;
      if (request.status === 201 && answer?.id && answer.src) resolve({ id: answer.id, src: answer.src });
      else reject(new Error(answer?.error?.message ?? blocksText.uploadFailed));
    };
    const body = new FormData();
    body.set("file", file);
    request.send(body);
  });
}

/**
 * "Inserir imagem": the file, its description (required, the `alt`), caption and credit. The file is uploaded
 * through the media pipeline when the dialog is sent (progress shown); the block then names the stored media item.
 * With `current` (a tap on an image of the body) it edits that image: the texts are filled in, a new file is
 * optional ("Trocar imagem"), and "Remover imagem" takes the block out.
 */
export function ImageDialog({
  onClose,
  onInsert,
  current,
  onRemove,
}: {
  onClose(): void;
  onInsert(image: InsertedImage): void;
  current?: InsertedImage | undefined;
  onRemove?: (() => void) | undefined;
}) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState(current?.alt ?? "");
  const [caption, setCaption] = useState(current?.caption ?? "");
  const [credit, setCredit] = useState(current?.credit ?? "");
  const [errors, setErrors] = useState<{ file?: string; alt?: string; upload?: string }>({});
  const [progress, setProgress] = useState<number | "processing" | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const busy = progress !== null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const found: typeof errors = {};
    if (!file && !current) found.file = blocksText.imageFileRequired;
    else if (file && !file.type.startsWith("image/")) found.file = blocksText.imageNotImage;
    else if (file && file.size > NEWS_MEDIA_MAX_BYTES) found.file = t.newsForm.mediaTooLarge;
    if (!alt.trim()) found.alt = blocksText.altRequired;
    setErrors(found);
    if (found.file) fileRef.current?.focus();
    else if (found.alt) document.getElementById(`${id}-alt`)?.focus();
    if (found.file || found.alt) return;
    const texts = {
      alt: alt.trim(),
      ...(caption.trim() ? { caption: caption.trim() } : {}),
      ...(credit.trim() ? { credit: credit.trim() } : {}),
    };
    if (!file && current) {
      onInsert({ mediaId: current.mediaId, previewSrc: current.previewSrc, ...texts });
      return;
    }
    if (!file) return;
    setProgress(0);
    try {
      const saved = await uploadImage(file, setProgress);
      onInsert({ mediaId: saved.id, ...texts, previewSrc: saved.src });
    } catch (error) {
      setErrors({ upload: error instanceof Error ? error.message : blocksText.uploadFailed });
      setProgress(null);
    }
  };

  const described = (field: string, hint: boolean, error: string | undefined) =>
    [hint ? `${id}-${field}-dica` : null, error ? `${id}-${field}-erro` : null].filter(Boolean).join(" ") || undefined;
  const errorOf = (field: string, message: string | undefined) =>
    message ? (
      <p id={`${id}-${field}-erro`} className={styles.dialogError}>
        {message}
      </p>
    ) : null;

  return (
    <Dialog title={current ? blocksText.imageEditTitle : blocksText.imageDialogTitle} onClose={() => (busy ? undefined : onClose())}>
      <form onSubmit={submit} onPaste={cleanPaste} noValidate className={styles.dialogForm} data-testid="image-dialog">
        <fieldset disabled={busy} className={styles.dialogFields}>
          <div className={styles.dialogField}>
            {current ? (
              <img
                className={styles.dialogPreview}
                src={current.previewSrc ?? `${href("/api/media")}?id=${encodeURIComponent(current.mediaId)}`}
                alt=""
              />
            ) : null}
            <label htmlFor={`${id}-file`}>{current ? blocksText.imageReplace : blocksText.imageFile}</label>
            <input
              ref={fileRef}
              id={`${id}-file`}
              type="file"
              accept="image/*"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              aria-invalid={errors.file ? true : undefined}
              aria-describedby={described("file", true, errors.file)}
            />
            <p id={`${id}-file-dica`} className={styles.dialogHint}>
              {blocksText.imageFileHint}
            </p>
            {errorOf("file", errors.file)}
          </div>
          <div className={styles.dialogField}>
            <label htmlFor={`${id}-alt`}>{blocksText.imageAlt}</label>
            <textarea
              id={`${id}-alt`}
              rows={2}
              value={alt}
              maxLength={NEWS_LIMITS.mediaDescription}
              onChange={(event) => setAlt(event.target.value)}
              aria-invalid={errors.alt ? true : undefined}
              aria-describedby={described("alt", true, errors.alt)}
              required
            />
            <p id={`${id}-alt-dica`} className={styles.dialogHint}>
              {blocksText.imageAltHint}
            </p>
            {errorOf("alt", errors.alt)}
          </div>
          <div className={styles.dialogField}>
            <label htmlFor={`${id}-caption`}>{blocksText.imageCaption}</label>
            <input id={`${id}-caption`} value={caption} maxLength={NEWS_LIMITS.mediaCaption} onChange={(event) => setCaption(event.target.value)} />
          </div>
          <div className={styles.dialogField}>
            <label htmlFor={`${id}-credit`}>{blocksText.imageCredit}</label>
            <input
              id={`${id}-credit`}
              value={credit}
              maxLength={NEWS_LIMITS.mediaCredit}
              onChange={(event) => setCredit(event.target.value)}
              aria-describedby={`${id}-credit-dica`}
            />
            <p id={`${id}-credit-dica`} className={styles.dialogHint}>
              {blocksText.imageCreditHint}
            </p>
          </div>
        </fieldset>
        {progress !== null ? (
          <div className={styles.dialogProgress} data-testid="inline-upload-progress">
            <progress max={100} value={progress === "processing" ? 100 : progress} aria-label={blocksText.imageFile} />
            <span role="status">{progress === "processing" ? blocksText.processing : blocksText.uploading(progress)}</span>
          </div>
        ) : null}
        {errors.upload ? (
          <p className={styles.dialogError} role="alert">
            {errors.upload}
          </p>
        ) : null}
        <div className={styles.dialogButtons}>
          {onRemove ? (
            <button type="button" className={styles.dialogDanger} onClick={onRemove} disabled={busy}>
              {blocksText.imageRemove}
            </button>
          ) : null}
          <button type="button" onClick={onClose} disabled={busy}>
            {blocksText.cancel}
          </button>
          <button type="submit" className={styles.dialogPrimary} disabled={busy}>
            {current ? blocksText.apply : blocksText.insert}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * "Link": the address (http, https or mailto, checked as the server checks it) and, when no text is selected, the
 * words that carry it (the address itself if left empty). On a link already there it edits the address or removes
 * the link. The page's own dialog: a phone's window.prompt covered the text and could not say what was wrong.
 */
export function LinkDialog({
  current,
  askText,
  onClose,
  onApply,
  onRemove,
}: {
  current: string;
  askText: boolean;
  onClose(): void;
  onApply(link: { href: string; text: string }): void;
  onRemove?: (() => void) | undefined;
}) {
  const id = useId();
  const [url, setUrl] = useState(current);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (url.trim() === "" && onRemove) {
      onRemove();
      return;
    }
    const href = safeHref(url);
    if (!href) {
      setError(t.richText.linkInvalid);
      document.getElementById(`${id}-url`)?.focus();
      return;
    }
    onApply({ href, text: text.replace(/\s+/g, " ").trim() });
  };
  return (
    <Dialog title={current ? blocksText.linkEditTitle : blocksText.linkDialogTitle} onClose={onClose}>
      <form onSubmit={submit} onPaste={cleanPaste} noValidate className={styles.dialogForm} data-testid="link-dialog">
        <UrlField id={id} label={blocksText.linkUrl} hint={blocksText.linkUrlHint} value={url} onChange={setUrl} error={error} autoComplete="off" />
        {askText ? (
          <div className={styles.dialogField}>
            <label htmlFor={`${id}-text`}>{blocksText.linkText}</label>
            <input id={`${id}-text`} value={text} onChange={(event) => setText(event.target.value)} aria-describedby={`${id}-text-dica`} />
            <p id={`${id}-text-dica`} className={styles.dialogHint}>
              {blocksText.linkTextHint}
            </p>
          </div>
        ) : null}
        <div className={styles.dialogButtons}>
          {onRemove ? (
            <button type="button" className={styles.dialogDanger} onClick={onRemove}>
              {blocksText.linkRemove}
            </button>
          ) : null}
          <button type="button" onClick={onClose}>
            {blocksText.cancel}
          </button>
          <button type="submit" className={styles.dialogPrimary}>
            {blocksText.apply}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** "Incorporar publicação": a YouTube, Instagram, X or TikTok address, checked by the same parser as the server's. */
export function EmbedDialog({ onClose, onInsert }: { onClose(): void; onInsert(embed: RichEmbed["attrs"]): void }) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const embed = parseEmbedUrl(url.trim());
    if (!embed) {
      setError(isTikTokShortLink(url) ? blocksText.tiktokShortLink : blocksText.embedInvalid);
      document.getElementById(`${id}-url`)?.focus();
      return;
    }
    onInsert({ provider: embed.provider, id: embed.id });
  };
  return (
    <Dialog title={blocksText.embedDialogTitle} onClose={onClose}>
      <form onSubmit={submit} noValidate className={styles.dialogForm} data-testid="embed-dialog">
        <UrlField id={id} label={blocksText.embedUrl} hint={blocksText.embedUrlHint} value={url} onChange={setUrl} error={error} />
        <div className={styles.dialogButtons}>
          <button type="button" onClick={onClose}>
            {blocksText.cancel}
          </button>
          <button type="submit" className={styles.dialogPrimary}>
            {blocksText.insert}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
