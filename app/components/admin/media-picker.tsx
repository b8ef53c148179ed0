import { FileVideo, ImagePlus, RefreshCw, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import { formatBytes } from "#app/lib/format-bytes.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import { MediaImage } from "#app/components/news/media-image.tsx";
import styles from "./media-picker.module.css";

export interface PickedFile {
  file: File;
}

interface MediaPickerProps {
  picked: PickedFile | null;
  onPick(file: PickedFile | null): void;
  current: MediaView | null;
  onRemoveCurrent(): void;
  progress: { percent: number; stage: "upload" | "processing" } | null;
  disabled: boolean;
  error?: string | undefined;
}

/** 'Mídia da Notícia': pick an image or video, preview it, see its name, size and the upload progress. */
export function MediaPicker({ picked, onPick, current, onRemoveCurrent, progress, disabled, error }: MediaPickerProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!picked) {
      setPreviewUrl(null);
      if (inputRef.current) inputRef.current.value = "";
      return;
    }
    const url = URL.createObjectURL(picked.file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [picked]);

  const isVideo = picked ? picked.file.type.startsWith("video/") : current?.kind === "video";
  const choose = () => inputRef.current?.click();

  return (
    <fieldset className={styles.picker} aria-describedby={error ? `${id}-erro` : undefined} disabled={disabled}>
      <legend>{t.newsForm.media}</legend>
      <input
        ref={inputRef}
        id={`${id}-arquivo`}
        type="file"
        name="media"
        accept="image/*,video/*"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-erro` : undefined}
        // With a file chosen or one already saved, the drop area (its label) gives way to the preview: the input,
        // reached by "Trocar arquivo" or the keyboard, keeps a name of its own.
        aria-label={picked || current ? `${t.newsForm.media}: ${t.newsForm.mediaChange}` : undefined}
        className={picked || current ? "visually-hidden" : styles.input}
        onChange={(event) => {
          const file = event.target.files?.[0];
          onPick(file ? { file } : null);
        }}
      />
      {picked && previewUrl ? (
        <div className={styles.preview} data-testid="media-preview">
          {isVideo ? <video src={previewUrl} controls muted playsInline /> : <img src={previewUrl} alt="" />}
          <div className={styles.info}>
            <p className={styles.name} data-testid="media-name">
              {picked.file.name}
            </p>
            <p className={styles.size} data-testid="media-size">
              {formatBytes(picked.file.size)}
            </p>
            {progress ? (
              <div className={styles.progress} data-testid="upload-progress">
                <progress max={100} value={progress.percent} aria-label={t.newsForm.media} />
                <span role="status">{progress.stage === "processing" ? t.newsForm.processing : t.newsForm.uploading(progress.percent)}</span>
              </div>
            ) : null}
            <div className={styles.buttons}>
              <button type="button" onClick={choose}>
                <RefreshCw aria-hidden="true" size={16} /> {t.newsForm.mediaChange}
              </button>
              <button type="button" onClick={() => onPick(null)} className={styles.remove}>
                <Trash2 aria-hidden="true" size={16} /> {t.newsForm.mediaRemove}
              </button>
            </div>
          </div>
        </div>
      ) : current ? (
        <div className={styles.preview} data-testid="media-current">
          {current.kind === "video" ? (
            <video src={current.src} poster={current.poster ?? undefined} controls muted playsInline preload="metadata" />
          ) : (
            <MediaImage media={current} alt="" sizes="240px" />
          )}
          <div className={styles.info}>
            <p className={styles.name}>{t.newsForm.mediaCurrent}</p>
            {current.external ? (
              <p className={styles.size} data-testid="media-external">
                {t.newsForm.mediaExternal}
              </p>
            ) : null}
            <div className={styles.buttons}>
              <button type="button" onClick={choose}>
                <RefreshCw aria-hidden="true" size={16} /> {t.newsForm.mediaChange}
              </button>
              <button type="button" onClick={onRemoveCurrent} className={styles.remove}>
                <Trash2 aria-hidden="true" size={16} /> {t.newsForm.mediaRemove}
              </button>
            </div>
          </div>
        </div>
      ) : (
        <label htmlFor={`${id}-arquivo`} className={styles.drop}>
          {isVideo ? <FileVideo aria-hidden="true" size={36} /> : <ImagePlus aria-hidden="true" size={36} />}
          <span className={styles.dropTitle}>{t.newsForm.mediaPick}</span>
          <span className={styles.types}>{t.newsForm.mediaTypes}</span>
        </label>
      )}
      {error ? (
        <p id={`${id}-erro`} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
