import { useId, useRef, useState } from "react";
import { Form } from "react-router";
import { canPublish } from "#app/lib/roles.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { Banner } from "./banner.tsx";
import { DriveForms } from "./drive-connection.tsx";
import { AutosaveOffer, AutosaveStatus } from "./news-autosave-notice.tsx";
import { NewsConflictPanel } from "./news-conflict-panel.tsx";
import { NewsFormActions, NewsFormDialogs, NewsFormNotices } from "./news-form-actions.tsx";
import { firstErrors, type NewsFormProps } from "./news-form-values.ts";
import { NewsMediaField } from "./news-media-field.tsx";
import { NewsPreview } from "./news-preview.tsx";
import { NewsFormHead, NewsScheduleField, NewsTextFields } from "./news-text-fields.tsx";
import styles from "./news-form.module.css";
import { useNewsFields } from "./use-news-fields.ts";
import { useNewsSave } from "./use-news-save.ts";
import { cleanPaste } from "./clean-paste.ts";

export { EMPTY_NEWS_FORM, type NewsFormPublication, type NewsFormValues, valuesFrom } from "./news-form-values.ts";

export { REDIRECT_AFTER_EDIT_MS } from "./use-news-save.ts";
export { BANNER_CLEAR_MS } from "./use-form-banner.ts";

/**
 * The news form (create and edit). Without JavaScript it posts to the route's action as multipart (the body as plain
 * text). With it, the same data goes to the JSON API with the body as structured content from the rich-text editor
 * (use-news-save.ts: the save, its answers and the conflicts, the autosave and the leave guard). This component lays
 * out the fields (use-news-fields.ts) and what the save shows; the media, actions and conflict panel are pieces of
 * their own.
 */
export function NewsForm(props: NewsFormProps) {
  const { mode, newsId, currentMedia, defaultAuthor, storeConnected, storeLabel, serverResult, timeZone, landed } = props;
  const editing = mode === "edit";
  // What the editor opened: live updates reload the page's data when someone else saves, but this form stays on the
  // version it started from (its version is what a save is checked against, and what a conflict compares with).
  const [opened] = useState(() => ({ initial: props.initial, publication: props.publication, publishAt: props.initialPublishAt ?? "" }));
  const publication = opened.publication;
  const fields = useNewsFields(opened.initial, () => firstErrors(serverResult?.fieldErrors));
  const { values, errors, clearError, picked, removeMedia, update } = fields;
  const formId = useId();
  const unpublishButton = useRef<HTMLButtonElement>(null);
  // A published story offers "Salvar alterações" and, apart, "Despublicar" (asked first); never a draft or a schedule.
  const live = editing && publication?.status === "published";
  // A reporter saves a draft or sends it for review, or corrects their own published or scheduled story: no
  // schedule, no publish (the server refuses them anyway), unless they have "publica sem revisão". Never a highlight.
  const editorRole = canPublish(useRootData().role);
  const reporter = !editorRole && !props.publishesWithoutReview;
  const save = useNewsSave({ props, opened, fields, live });
  const { busy, banner, conflict, autosave } = save;

  return (
    <>
      {props.drive ? <DriveForms /> : null}
      <Form
        ref={save.formRef}
        method="post"
        encType="multipart/form-data"
        className={styles.form}
        onSubmit={save.onSubmit}
        onPaste={cleanPaste}
        noValidate
        aria-busy={busy}
      >
        <NewsFormHead editing={editing} highlighted={values.isHighlighted} update={update} busy={busy} highlight={editorRole} />
        {banner ? <Banner ref={save.bannerRef} kind={banner.kind} message={banner.message} /> : null}
        {props.notice ?? null}
        {save.recoveryNotice ? <AutosaveOffer {...save.recoveryNotice} /> : null}
        {conflict ? (
          <NewsConflictPanel
            key={conflict.merge?.current.version ?? "conflict"}
            conflict={conflict}
            timeZone={timeZone}
            onReload={save.reload}
            onOverwrite={() => save.sendMerged()}
            onChoose={(choices) => save.sendMerged(choices)}
          />
        ) : null}
        <NewsFormNotices
          landed={landed}
          newsId={newsId}
          publication={save.publication}
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
          bodyKey={save.bodyKey}
        />
        <NewsMediaField
          formId={formId}
          picked={picked}
          onPick={fields.onPick}
          current={currentMedia}
          removeMedia={removeMedia}
          onRemoveCurrent={fields.removeCurrentMedia}
          progress={save.progress}
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
              value={save.publishAt}
              onChange={(value) => {
                save.setPublishAt(value);
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
        askUnpublish={save.askUnpublish}
        setAskUnpublish={save.setAskUnpublish}
        onUnpublish={save.unpublish}
        unpublishButton={unpublishButton}
        guard={save.guard}
        autosaved={autosave.state === "saved" ? autosave.savedAt : null}
        timeZone={timeZone}
      />
    </>
  );
}
