import { useEffect, useId, useRef, useState } from "react";
import { Form, useNavigate } from "react-router";
import { t } from "../../i18n/newsroom.ts";
import type { NewsStatus } from "../../lib/news-view.ts";
import { editPageAfterSave, UNPUBLISHED_OUTCOME } from "../../lib/news-landing.ts";
import type { MergeChoice, MergeField } from "../../lib/news-merge.ts";
import { canPublish } from "../../lib/roles.ts";
import { useRootData } from "../../lib/site-context.ts";
import { Banner } from "./banner.tsx";
import { DriveForms } from "./drive-connection.tsx";
import { AutosaveOffer, AutosaveStatus } from "./news-autosave-notice.tsx";
import { changedFields, fieldsChangedByMe, type NewsConflict, NewsConflictPanel } from "./news-conflict-panel.tsx";
import { NewsFormActions, NewsFormDialogs, NewsFormNotices } from "./news-form-actions.tsx";
import { draftOf, firstErrors, type MergeRequest, type NewsFormProps, saveBody, savedMessage, validateNews } from "./news-form-values.ts";
import { NewsMediaField } from "./news-media-field.tsx";
import { NewsPreview } from "./news-preview.tsx";
import { useOfferToReturn } from "./news-return-link.tsx";
import { NewsFormHead, NewsScheduleField, NewsTextFields } from "./news-text-fields.tsx";
import styles from "./news-form.module.css";
import { useAutosaveRecovery } from "./use-autosave-recovery.ts";
import { initialBanner, useFormBanner } from "./use-form-banner.ts";
import { useNewsFields } from "./use-news-fields.ts";
import { useNewsSubmit } from "./use-news-submit.ts";
import { cleanPaste } from "./clean-paste.ts";

export { EMPTY_NEWS_FORM, type NewsFormPublication, type NewsFormValues, valuesFrom } from "./news-form-values.ts";

export const REDIRECT_AFTER_EDIT_MS = 2000;
export { BANNER_CLEAR_MS } from "./use-form-banner.ts";

/**
 * The news form (create and edit). Without JavaScript it posts to the route's action as multipart (the body as plain
 * text). With it, the same data goes to the JSON API (use-news-submit.ts) with the body as structured content from
 * the rich-text editor; the work in progress is autosaved (use-autosave-recovery.ts) and leaving with changes unsaved
 * asks first (use-leave-guard.ts). The fields, media, actions and conflict panel are pieces of their own.
 */
export function NewsForm(props: NewsFormProps) {
  const { mode, newsId, currentMedia, defaultAuthor, storeConnected, storeLabel, serverResult, timeZone, landed } = props;
  const editing = mode === "edit";
  const navigate = useNavigate();
  // What the editor opened: live updates reload the page's data when someone else saves, but this form stays on the
  // version it started from (its version is what a save is checked against, and what a conflict compares with).
  const [opened] = useState(() => ({ initial: props.initial, publication: props.publication, publishAt: props.initialPublishAt ?? "" }));
  const publication = opened.publication;
  // The version a save is checked against: the one opened (or, after "Recuperar", the one the copy was typed on).
  const [version, setVersion] = useState(publication?.version);
  const [publishAt, setPublishAt] = useState(opened.publishAt);
  const [conflict, setConflict] = useState<(NewsConflict & { intent: NewsStatus; unpublish: boolean }) | null>(null);
  const fields = useNewsFields(opened.initial, () => firstErrors(serverResult?.fieldErrors));
  const { values, setValues, errors, setErrors, clearError, picked, removeMedia, update } = fields;
  const [bodyKey, setBodyKey] = useState(0);
  const [saved, setSaved] = useState(false);
  /** The story's status as the last save left it (shown at once: "Em revisão" right after "Enviar para revisão"). */
  const [savedPublication, setSavedPublication] = useState<typeof publication>(undefined);
  const submit = useNewsSubmit({ editing, newsId });
  const { banner, setBanner, bannerRef, formRef, toFirstInvalid } = useFormBanner(() => initialBanner(landed, serverResult));
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const formId = useId();
  const [askUnpublish, setAskUnpublish] = useState(false);
  const unpublishButton = useRef<HTMLButtonElement>(null);
  // A published story offers "Salvar alterações" and, apart, "Despublicar" (asked first); never a draft or a schedule.
  const live = editing && publication?.status === "published";
  // A reporter saves a draft or sends it for review, or corrects their own published or scheduled story: no
  // schedule, no publish (the server refuses them anyway), unless they have "publica sem revisão". Never a highlight.
  const editorRole = canPublish(useRootData().role);
  const reporter = !editorRole && !props.publishesWithoutReview;
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
        timers.current.push(setTimeout(() => navigate(`/article/${id}`), REDIRECT_AFTER_EDIT_MS));
      },
      onConflict(current, merged) {
        // Someone else saved first: nothing is lost, the editor sees what changed (or, after "Salvar mesmo assim",
        // the fields both changed, side by side) and decides.
        setConflict({ changed: changedFields(current, opened.initial, publication, defaultAuthor), current, merge: merged, intent, unpublish });
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
          setConflict({
            changed: changedFields(current, opened.initial, publication, defaultAuthor),
            current,
            merge: merged,
            intent: "review",
            unpublish: false,
          });
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

  return (
    <>
      {props.drive ? <DriveForms /> : null}
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        className={styles.form}
        onSubmit={onSubmit}
        onPaste={cleanPaste}
        noValidate
        aria-busy={busy}
      >
        <NewsFormHead editing={editing} highlighted={values.isHighlighted} update={update} busy={busy} highlight={editorRole} />
        {banner ? <Banner ref={bannerRef} kind={banner.kind} message={banner.message} /> : null}
        {props.notice ?? null}
        {recovery.notice ? <AutosaveOffer {...recovery.notice} /> : null}
        {conflict ? (
          <NewsConflictPanel
            key={conflict.merge?.current.version ?? "conflict"}
            conflict={conflict}
            timeZone={timeZone}
            onReload={() => {
              // The saved version replaces the form on purpose: nothing to ask before it.
              guard.allowLeave();
              props.onReload?.(conflict.current.version);
            }}
            onOverwrite={() => sendMerged()}
            onChoose={(choices) => sendMerged(choices)}
          />
        ) : null}
        <NewsFormNotices
          landed={landed}
          newsId={newsId}
          publication={editing ? (savedPublication ?? publication) : undefined}
          history={editorRole}
          timeZone={timeZone}
          drive={props.drive}
          storeConnected={storeConnected}
          storeName={props.storeName ?? storeLabel}
        />

        <NewsTextFields
          formId={formId}
          values={values}
          update={update}
          errors={errors}
          busy={busy}
          categorySuggestions={props.categorySuggestions ?? []}
          authorChoices={props.authorChoices ?? []}
          defaultAuthor={defaultAuthor}
          bodyKey={bodyKey}
        />
        <NewsMediaField
          formId={formId}
          picked={picked}
          onPick={fields.onPick}
          current={currentMedia}
          removeMedia={removeMedia}
          onRemoveCurrent={fields.removeCurrentMedia}
          progress={submit.progress}
          busy={busy}
          values={values}
          onText={(field, value) => update(field, value)}
          errors={errors}
          newsId={editing ? newsId : undefined}
        >
          {editing && publication ? <input type="hidden" name="version" value={publication.version} /> : null}
          {live || reporter ? null : (
            <NewsScheduleField
              formId={formId}
              value={publishAt}
              onChange={(value) => {
                setPublishAt(value);
                clearError("publishAt");
              }}
              errors={errors}
              busy={busy}
              timeZone={timeZone}
            />
          )}
        </NewsMediaField>

        <AutosaveStatus state={autosave.state} savedAt={autosave.savedAt} timeZone={timeZone} local={!editing} />
        <NewsPreview values={values} picked={picked} currentMedia={currentMedia} removeMedia={removeMedia} defaultAuthor={defaultAuthor} />
        <NewsFormActions
          editing={editing}
          newsId={newsId}
          live={live}
          reporter={reporter}
          scheduled={editing && publication?.status === "scheduled"}
          busy={busy}
          unpublishButton={unpublishButton}
          confirmUnpublish={Boolean(serverResult?.confirmUnpublish)}
        />
      </Form>
      <NewsFormDialogs
        askUnpublish={askUnpublish}
        setAskUnpublish={setAskUnpublish}
        onUnpublish={() => send("draft", version, true)}
        unpublishButton={unpublishButton}
        guard={guard}
        autosaved={autosave.state === "saved" ? autosave.savedAt : null}
        timeZone={timeZone}
      />
    </>
  );
}
