import { useEffect, useRef, useState } from "react";
import { href, useNavigate } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import { editPageAfterSave, UNPUBLISHED_OUTCOME } from "#app/lib/news-landing.ts";
import type { MergeChoice, MergeConflict, MergeField } from "#app/lib/news-merge.ts";
import type { NewsConflictCurrent, NewsStatus } from "#app/lib/news-view.ts";
import { changedFields, fieldsChangedByMe, type NewsConflict } from "./news-conflict-panel.tsx";
import {
  draftOf,
  firstErrors,
  type MergeRequest,
  type NewsFormProps,
  type NewsFormPublication,
  type NewsFormValues,
  saveBody,
  savedMessage,
  validateNews,
} from "./news-form-values.ts";
import { useOfferToReturn } from "./news-return-link.tsx";
import { useAutosaveRecovery } from "./use-autosave-recovery.ts";
import { initialBanner, useFormBanner } from "./use-form-banner.ts";
import type { useNewsFields } from "./use-news-fields.ts";
import { useNewsSubmit } from "./use-news-submit.ts";

/** After an edit is saved, the story's page opens this long after the success banner. */
export const REDIRECT_AFTER_EDIT_MS = 2000;

/** What the form opened with: the values, the story's status and version, and its schedule. */
export interface OpenedNews {
  initial: NewsFormValues;
  publication: NewsFormPublication | undefined;
  publishAt: string;
}

/** A save refused by a 409, with what it was sent as ("Salvar mesmo assim" sends it again, merged). */
type SaveConflict = NewsConflict & { intent: NewsStatus; unpublish: boolean };

interface Options {
  props: NewsFormProps;
  /** What the form opened with (not what live updates reload since: a save is checked against this). */
  opened: OpenedNews;
  fields: ReturnType<typeof useNewsFields>;
  /** A published story: "Salvar alterações" keeps its publication date (a recovered copy's schedule is ignored). */
  live: boolean;
}

/**
 * The news form's saving: the submit (the button pressed says the status), the checks before it, the request
 * (use-news-submit.ts) and what its answer does: a new story or an unpublish goes on to its edit page, an edit
 * shows its success and then opens the story, a 409 opens the conflict panel ("Salvar mesmo assim" and the choices
 * send a merge), a refusal shows its messages and the first invalid field. It holds what the form renders of it:
 * the banner, the progress, the conflict, the status as the last save left it, the schedule, and the unsaved
 * work's keepers (use-autosave-recovery.ts: the autosave, paused during a save and stopped by it, and the leave
 * guard, let go after it); it saves first for "Devolver ao repórter" (news-return-link.tsx).
 */
export function useNewsSave({ props, opened, fields, live }: Options) {
  const { mode, newsId, defaultAuthor, storeConnected, storeLabel, serverResult, timeZone, landed } = props;
  const editing = mode === "edit";
  const publication = opened.publication;
  const { values, setValues, setErrors, picked, removeMedia } = fields;
  const navigate = useNavigate();
  // The version a save is checked against: the one opened (or, after "Recuperar", the one the copy was typed on).
  const [version, setVersion] = useState(publication?.version);
  const [publishAt, setPublishAt] = useState(opened.publishAt);
  const [conflict, setConflict] = useState<SaveConflict | null>(null);
  const [bodyKey, setBodyKey] = useState(0);
  const [saved, setSaved] = useState(false);
  /** The story's status as the last save left it (shown at once: "Em revisão" right after "Enviar para revisão"). */
  const [savedPublication, setSavedPublication] = useState<NewsFormPublication | undefined>(undefined);
  const [askUnpublish, setAskUnpublish] = useState(false);
  const submit = useNewsSubmit({ editing, newsId });
  const { banner, setBanner, bannerRef, formRef, toFirstInvalid } = useFormBanner(() => initialBanner(landed, serverResult));
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const busy = submit.busy;

  const recovery = useAutosaveRecovery({
    editing,
    newsId,
    autosaveUser: props.autosaveUser,
    serverCopy: props.autosave,
    keepOpened: Boolean(serverResult?.values),
    draft: draftOf(values, publishAt, version ?? 0),
    // A file picked or removed is a change too (not autosaved: files go with a real save only).
    otherChanges: picked !== null || removeMedia,
    saved,
    busy,
    timeZone,
    opened: { values: opened.initial, publishAt: opened.publishAt },
    apply(next, nextPublishAt, nextVersion) {
      // A copy recovered is checked against the version it was typed on: saved by someone else since, a conflict.
      if (nextVersion !== undefined) setVersion(nextVersion);
      setValues(next);
      if (!live) setPublishAt(nextPublishAt);
      setBodyKey((key) => key + 1);
    },
  });
  const { autosave, guard } = recovery;

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submit.status === "submitting") return;
    // The button pressed says what to do with the item (Enter in a field presses the first one: a draft, the safe one).
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === "unpublish") {
      setAskUnpublish(true);
      return;
    }
    send((submitter?.value || "published") as NewsStatus, version);
  }

  /** "Salvar mesmo assim" (and then the choices): a merge on the version this form was opened on (news-merge.ts). */
  function sendMerged(choices?: Partial<Record<MergeField, MergeChoice>>) {
    if (!conflict) return;
    const changed = fieldsChangedByMe(values, opened.initial, { picked: Boolean(picked), removed: removeMedia && !picked });
    const seen = choices ? conflict.merge?.current.version : undefined;
    send(conflict.intent, version, conflict.unpublish, { changed, choices, seen });
  }

  function send(intent: NewsStatus, version: number | undefined, unpublish = false, merge?: MergeRequest) {
    // Only a new file needs the media store: text, unpublishing and the rest go through while it is down.
    if (!storeConnected && picked) {
      setBanner({ kind: "warning", message: props.drive ? t.newsForm.driveRequired : t.storage.down.newsFile(props.storeName ?? storeLabel) });
      return;
    }
    setConflict(null);
    const nextErrors = validateNews(values, intent, publishAt, picked);
    setErrors(nextErrors);
    if (Object.keys(nextErrors).length > 0) {
      toFirstInvalid();
      return;
    }
    setBanner(null);
    // A real save: an autosave waiting or on its way is not needed any more (the save deletes the user's copy).
    autosave.stop();
    const body = saveBody(values, { intent, publishAt, version: editing ? version : undefined, unpublish, removeMedia, picked, merge });
    submit.post(body, Boolean(picked), {
      onSaved(answer) {
        setSaved(true);
        guard.allowLeave();
        if (!editing) autosave.clearLocal();
        if (!editing || unpublish) {
          // A new story's first save, or an unpublish: on to its edit page, which says what happened and links to it.
          navigate(editPageAfterSave(answer.id, unpublish ? UNPUBLISHED_OUTCOME : (answer.status ?? "published"), answer.version, answer.media));
          return;
        }
        if (publication && answer.status) {
          setSavedPublication({ ...publication, status: answer.status, publishedAt: answer.publishedAt ?? publication.publishedAt });
        }
        setBanner({ kind: "success", message: savedMessage(answer, timeZone, storeLabel) });
        const id = answer.id;
        timers.current.push(setTimeout(() => navigate(href("/article/:id/:slug?", { id })), REDIRECT_AFTER_EDIT_MS));
      },
      onConflict(current, merged) {
        // Someone else saved first: nothing is lost, the editor sees what changed (or, after "Salvar mesmo assim",
        // the fields both changed, side by side) and decides.
        setConflict(conflictOf(current, merged, intent, unpublish));
      },
      onFailed(detail, fields) {
        const message = t.newsForm.submitError(editing, detail);
        setBanner({ kind: "error", message });
        if (fields) {
          setErrors(firstErrors(fields));
          toFirstInvalid();
        }
        window.alert(message);
      },
    });
  }

  /** A 409's conflict: what changed since the version opened, and what the refused save was sent as. */
  function conflictOf(current: NewsConflictCurrent, merge: MergeConflict | undefined, intent: NewsStatus, unpublish: boolean): SaveConflict {
    return { changed: changedFields(current, opened.initial, publication, defaultAuthor), current, merge, intent, unpublish };
  }

  /**
   * "Devolver ao repórter" with changes unsaved (news-return-link.tsx): they are saved first, the story still in
   * review; the new version, or null when refused (the form shows why, as after any save).
   */
  function saveBeforeReturn(): Promise<number | null> {
    return new Promise((resolve) => {
      const nextErrors = validateNews(values, "review", publishAt, picked);
      setErrors(nextErrors);
      if (Object.keys(nextErrors).length > 0 || (!storeConnected && picked)) {
        if (!storeConnected && picked) setBanner({ kind: "warning", message: t.storage.down.newsFile(props.storeName ?? storeLabel) });
        else toFirstInvalid();
        resolve(null);
        return;
      }
      setConflict(null);
      setBanner(null);
      autosave.stop();
      const body = saveBody(values, { intent: "review", publishAt, version, unpublish: false, removeMedia, picked });
      submit.post(body, Boolean(picked), {
        onSaved(answer) {
          setSaved(true);
          if (answer.version !== undefined) setVersion(answer.version);
          resolve(answer.version ?? null);
        },
        onConflict(current, merged) {
          setConflict(conflictOf(current, merged, "review", false));
          resolve(null);
        },
        onFailed(detail, fields) {
          setBanner({ kind: "error", message: t.newsForm.submitError(true, detail) });
          if (fields) {
            setErrors(firstErrors(fields));
            toFirstInvalid();
          }
          resolve(null);
        },
      });
    });
  }
  useOfferToReturn({ dirty: recovery.dirty && !busy, saveBeforeReturn, allowLeave: guard.allowLeave });

  return {
    busy,
    /** The upload's progress (a file picked), then "processing" while the server re-encodes it. */
    progress: submit.progress,
    banner,
    bannerRef,
    formRef,
    /** The save refused by a 409, for the conflict panel. */
    conflict,
    /** Editing: the story's status as the last save left it, else as opened. */
    publication: editing ? (savedPublication ?? publication) : undefined,
    publishAt,
    setPublishAt,
    /** Changes when recovered values replace the form's (the body editor starts again on them). */
    bodyKey,
    /** The autosave offer or notice, when there is one. */
    recoveryNotice: recovery.notice,
    autosave,
    guard,
    onSubmit,
    sendMerged,
    /** The conflict panel's "Recarregar a versão atual": the saved version replaces the form on purpose, nothing asked. */
    reload() {
      if (!conflict) return;
      guard.allowLeave();
      props.onReload?.(conflict.current.version);
    },
    /** "Despublicar" was pressed: its confirmation dialog is open. */
    askUnpublish,
    setAskUnpublish,
    /** The dialog's "Despublicar": the story back to a draft, then its edit page says so. */
    unpublish: () => send("draft", version, true),
  };
}
