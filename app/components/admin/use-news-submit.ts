import { href } from "react-router";
import { useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import type { MergeConflict } from "#app/lib/news-merge.ts";
import type { NewsConflictCurrent, NewsStatus } from "#app/lib/news-view.ts";

/** What the JSON API answers a save with (success, or an error with its code). */
export interface NewsSaveAnswer {
  id?: string;
  media?: "saved" | "new" | "existing" | "none";
  status?: NewsStatus;
  publishedAt?: string;
  version?: number;
  error?: { code?: string; message?: string; current?: NewsConflictCurrent; merge?: MergeConflict; fields?: Partial<Record<string, string[]>> };
}

export type SubmitStatus = "idle" | "submitting" | "success" | "error";
export type SubmitProgress = { percent: number; stage: "upload" | "processing" } | null;

interface Handlers {
  onSaved(answer: Required<Pick<NewsSaveAnswer, "id" | "media">> & NewsSaveAnswer): void;
  /** A 409: someone else saved first; with `merge`, "Salvar mesmo assim" found fields both changed (to choose). */
  onConflict(current: NewsConflictCurrent, merge?: MergeConflict): void;
  /** `fields`: the server's messages per field (a 400 validation_failed). */
  onFailed(detail: string, fields?: Partial<Record<string, string[]>>): void;
}

/**
 * Sending the news form with JavaScript: the data goes to the JSON API over XMLHttpRequest (POST /api/news, or PUT
 * /api/news/:id when editing), so the real upload progress (bytes sent) can be shown, then a "processing" stage
 * while the server re-encodes the media. The caller decides what a success, a conflict (409) or a failure means.
 */
export function useNewsSubmit({ editing, newsId }: { editing: boolean; newsId: string | undefined }) {
  const [status, setStatus] = useState<SubmitStatus>("idle");
  const [progress, setProgress] = useState<SubmitProgress>(null);

  function post(body: FormData, withFile: boolean, handlers: Handlers) {
    setStatus("submitting");
    setProgress(withFile ? { percent: 0, stage: "upload" } : null);
    const request = new XMLHttpRequest();
    // Editing is the edit page's mode: its story has an id.
    request.open(editing ? "PUT" : "POST", editing ? href("/api/news/:id", { id: newsId! }) : href("/api/news"));
    request.responseType = "json";
    request.upload.onprogress = (progressEvent) => {
      if (withFile && progressEvent.lengthComputable) {
        setProgress({ percent: Math.round((progressEvent.loaded / progressEvent.total) * 100), stage: "upload" });
      }
    };
    request.upload.onload = () => {
      if (withFile) setProgress({ percent: 100, stage: "processing" });
    };
    const fail = (detail: string, fields?: Partial<Record<string, string[]>>) => {
      setStatus("error");
      setProgress(null);
      handlers.onFailed(detail, fields);
    };
    request.onerror = () => fail(t.newsForm.unknownError);
    request.onload = () => {
      const answer = request.response as NewsSaveAnswer | null;
      if (request.status >= 200 && request.status < 300 && answer?.id && answer.media) {
        setStatus("success");
        setProgress(null);
        handlers.onSaved({ ...answer, id: answer.id, media: answer.media });
        return;
      }
      const code = answer?.error?.code;
      if (request.status === 409 && (code === "news_version_conflict" || code === "news_merge_conflict") && answer?.error?.current) {
        setStatus("error");
        setProgress(null);
        handlers.onConflict(answer.error.current, code === "news_merge_conflict" ? answer.error.merge : undefined);
        return;
      }
      fail(answer?.error?.message ?? t.newsForm.unknownError, answer?.error?.fields);
    };
    request.send(body);
  }

  return { status, setStatus, progress, post, busy: status === "submitting" };
}
