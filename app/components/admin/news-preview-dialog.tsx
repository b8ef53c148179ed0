import { href } from "react-router";
import { X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { t } from "#app/i18n/newsroom.ts";
import { t as readerText } from "#app/i18n/pt-BR.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import type { RichBlock, RichDoc } from "#app/lib/rich-text.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { RichText } from "#app/components/news/rich-text.tsx";
import article from "#app/routes/site/article.module.css";
import type { PickedFile } from "./media-picker.tsx";
import type { NewsFormValues } from "./news-form-values.ts";
import styles from "./news-preview.module.css";

/**
 * The dialog of "Ver como leitor" (news-preview.tsx), a chunk of its own: the reader's body renderer and the
 * article's styles load when a preview is opened, not with every page that shares the form's code.
 */
/** The media ids of a body's image blocks, at any depth (a quote, a list item). */
function imageIds(blocks: readonly RichBlock[], into: Set<string> = new Set()): Set<string> {
  for (const block of blocks) {
    if (block.type === "image") into.add(block.attrs.mediaId);
    else if (block.type === "blockquote") imageIds(block.content, into);
    else if (block.type === "bulletList" || block.type === "orderedList") for (const item of block.content) imageIds(item.content, into);
  }
  return into;
}

/** The body's images as the preview draws them: each through GET /api/media?id=, which answers with its variant. */
function bodyMedia(doc: RichDoc): Record<string, MediaView> {
  const media: Record<string, MediaView> = {};
  for (const id of imageIds(doc.content)) {
    const src = `${href("/api/media")}?id=${encodeURIComponent(id)}`;
    media[id] = { kind: "image", src, largeSrc: src, mimeType: "image/*", width: null, height: null, srcSet: null, webpSrcSet: null };
  }
  return media;
}

export default function PreviewDialog({
  values,
  picked,
  currentMedia,
  defaultAuthor,
  onClose,
}: {
  values: NewsFormValues;
  picked: PickedFile | null;
  currentMedia: MediaView | null;
  defaultAuthor: string;
  onClose(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { site } = useRootData();
  const [pickedUrl, setPickedUrl] = useState<string | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  useEffect(() => {
    if (!picked) return;
    const url = URL.createObjectURL(picked.file);
    setPickedUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [picked]);
  const video = picked ? picked.file.type.startsWith("video/") : currentMedia?.kind === "video";
  const mediaSrc = picked ? pickedUrl : (currentMedia?.src ?? null);
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
      data-testid="news-preview"
    >
      <div className={styles.bar}>
        <p id={titleId} className={styles.barTitle}>
          {t.newsForm.previewTitle}
        </p>
        <button type="button" className={styles.close} onClick={onClose} aria-label={t.newsForm.previewClose} title={t.newsForm.previewClose}>
          <X aria-hidden="true" size={20} />
        </button>
      </div>
      <article className={styles.page}>
        <header className={article.header}>
          {values.category.trim() ? <span className={styles.category}>{values.category.trim()}</span> : null}
          <h1 className={article.title}>{values.title.trim() || t.newsForm.previewNoTitle}</h1>
          {values.subtitle.trim() ? <p className={article.subtitle}>{values.subtitle.trim()}</p> : null}
          <p className={article.meta}>
            <span>
              {t.newsForm.previewBy} <strong>{values.author.trim() || defaultAuthor}</strong>
            </span>
          </p>
        </header>
        {mediaSrc ? (
          <figure className={styles.media}>
            {video ? (
              // biome-ignore lint/a11y/useMediaCaption: the preview of a video the reporter picked; its captions are not ours.
              <video src={mediaSrc} controls preload="metadata" />
            ) : (
              <img src={mediaSrc} alt={values.mediaDescription.trim() || values.title.trim()} />
            )}
            {values.mediaCaption.trim() || values.mediaCredit.trim() ? (
              <figcaption>
                {[
                  values.mediaCaption.trim(),
                  values.mediaCredit.trim() ? readerText.article.credit(video ? "video" : "image", values.mediaCredit.trim()) : "",
                ]
                  .filter(Boolean)
                  .join(" — ")}
              </figcaption>
            ) : null}
          </figure>
        ) : null}
        <div className={article.content} data-testid="news-preview-content">
          <RichText doc={values.body} siteUrl={site.url} media={bodyMedia(values.body)} />
        </div>
      </article>
    </dialog>,
    document.body,
  );
}
