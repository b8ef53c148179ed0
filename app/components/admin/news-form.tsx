import { Star } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import { formatDateTime } from "../../i18n/format.ts";
import { t } from "../../i18n/newsroom.ts";
import type { MediaView } from "../../lib/media-view.ts";
import type { NewsStatus } from "../../lib/news-view.ts";
import { checkNewsMediaFile, missingImageDescription, newsFormSchema } from "../../lib/news-schema.ts";
import { editPageAfterSave, UNPUBLISHED_OUTCOME } from "../../lib/news-landing.ts";
import { encodeChoices, type MergeChoice, type MergeField } from "../../lib/news-merge.ts";
import type { RichDoc } from "../../lib/rich-text.ts";
import { plainTextToDoc } from "../../lib/rich-text-plain.ts";
import { canPublish } from "../../lib/roles.ts";
import { useRootData } from "../../lib/site-context.ts";
import buttons from "../ui/button.module.css";
import { Banner, type BannerKind } from "./banner.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { DriveConnectionCard, DriveForms, type DriveStatusView } from "./drive-connection.tsx";
import type { PickedFile } from "./media-picker.tsx";
import { changedFields, fieldsChangedByMe, type NewsConflict, NewsConflictPanel } from "./news-conflict-panel.tsx";
import { NewsBodyField } from "./news-body-field.tsx";
import { NewsMediaField } from "./news-media-field.tsx";
import styles from "./news-form.module.css";
import { useNewsSubmit } from "./use-news-submit.ts";

export interface NewsFormValues {
  title: string;
  subtitle: string;
  /** The body as structured content (the editor's document; the textarea's text without JavaScript). */
  body: RichDoc;
  category: string;
  author: string;
  /** The image's description for screen readers (required with a new image), caption and credit. */
  mediaDescription: string;
  mediaCaption: string;
  mediaCredit: string;
  isHighlighted: boolean;
}

type Field = Exclude<keyof NewsFormValues, "body"> | "fullContent" | "media" | "publishAt";

/** Where an edited item stands now: its status, publication date, version and media (what a conflict compares). */
export interface NewsFormPublication {
  status: NewsStatus;
  publishedAt: string;
  version: number;
  mediaId: string | null;
}

interface NewsFormProps {
  mode: "create" | "edit";
  newsId?: string;
  initial: NewsFormValues;
  currentMedia: MediaView | null;
  defaultAuthor: string;
  storeConnected: boolean;
  storeLabel: string;
  /** Categories already in use, suggested as the editor types (a <datalist>). */
  categorySuggestions?: string[];
  /** The Google Drive connection (MEDIA_STORE=gdrive only): shows its card instead of the plain warning. */
  drive?: DriveStatusView | null;
  /** What the server action answered when the form was sent without JavaScript. */
  serverResult?:
    | {
        success?: string;
        error?: string;
        fieldErrors?: Partial<Record<string, string[]>>;
        values?: Record<string, string>;
        /** Without JavaScript, "Despublicar" first comes back with this: the question, then a second button confirms. */
        confirmUnpublish?: boolean;
      }
    | undefined;
  /** Where a save landed the editor (a new story's first save, an unpublish): the banner's message and the links to see it. */
  landed?: { message: string; published: boolean } | null | undefined;
  /** The site's time zone: the schedule field is on its clock. */
  timeZone: string;
  /** Editing: the item's status, dates and version as loaded. */
  publication?: NewsFormPublication | undefined;
  /** Editing a scheduled item: its time as the schedule field shows it ("2026-11-25T10:00"). */
  initialPublishAt?: string | undefined;
  /** After a conflict: load the saved version into a new form (the editor's changes are dropped on purpose). */
  onReload?: (() => void) | undefined;
}

export const EMPTY_NEWS_FORM: NewsFormValues = {
  title: "",
  subtitle: "",
  body: { type: "doc", content: [] },
  category: "",
  author: "",
  mediaDescription: "",
  mediaCaption: "",
  mediaCredit: "",
  isHighlighted: false,
};
/** `base` with the text fields a refused submission sent (no JavaScript) put back. */
export function valuesFrom(sent: Record<string, string> | undefined, base: NewsFormValues): NewsFormValues {
  if (!sent) return base;
  const values = { ...base, isHighlighted: sent.isHighlighted === "on" };
  for (const key of Object.keys(base) as Array<keyof NewsFormValues>) {
    if (key !== "isHighlighted" && key !== "body" && typeof sent[key] === "string") values[key] = sent[key];
  }
  // Without JavaScript the body is sent as plain text.
  if (typeof sent.fullContent === "string") values.body = plainTextToDoc(sent.fullContent);
  return values;
}

export const REDIRECT_AFTER_EDIT_MS = 2000;
export const BANNER_CLEAR_MS = 3000;

/**
 * The news form (create and edit). Without JavaScript it posts to the route's action as multipart (the body as plain
 * text). With it, the same data goes to the JSON API (use-news-submit.ts) with the body as structured content from
 * the rich-text editor (news-body-field.tsx). The media field and the conflict panel are pieces of their own.
 */
export function NewsForm({
  mode,
  newsId,
  initial,
  currentMedia,
  defaultAuthor,
  storeConnected,
  storeLabel,
  categorySuggestions = [],
  drive,
  serverResult,
  timeZone,
  publication: loadedPublication,
  initialPublishAt,
  onReload,
  landed,
}: NewsFormProps) {
  const editing = mode === "edit";
  const navigate = useNavigate();
  // What the editor opened: live updates reload the page's data when someone else saves, but this form stays on the
  // version it started from (its version is what a save is checked against, and what a conflict compares with).
  const [opened] = useState(() => ({ initial, publication: loadedPublication }));
  const publication = opened.publication;
  const [publishAt, setPublishAt] = useState(initialPublishAt ?? "");
  const [conflict, setConflict] = useState<(NewsConflict & { intent: NewsStatus; unpublish: boolean }) | null>(null);
  const [values, setValues] = useState<NewsFormValues>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>(() => firstErrors(serverResult?.fieldErrors));
  const [picked, setPicked] = useState<PickedFile | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const submit = useNewsSubmit({ editing, newsId });
  const { status, progress } = submit;
  const [banner, setBanner] = useState<{ kind: BannerKind; message: string } | null>(() =>
    landed
      ? { kind: "success", message: landed.message }
      : serverResult?.error
        ? { kind: "error", message: serverResult.error }
        : serverResult?.success
          ? { kind: "success", message: serverResult.success }
          : null,
  );
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const formId = useId();
  const [askUnpublish, setAskUnpublish] = useState(false);
  const unpublishButton = useRef<HTMLButtonElement>(null);
  // A published story offers "Salvar alterações" and, apart, "Despublicar" (asked first); never a draft or a schedule.
  const live = editing && publication?.status === "published";
  // A reporter saves a draft or sends it for review: no schedule, no publish (the server refuses them anyway).
  const reporter = !canPublish(useRootData().role);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  // Show the result where the editor is looking; success and warning banners clear after 3 s, errors stay.
  const bannerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!banner) return;
    bannerRef.current?.scrollIntoView({ block: "center", behavior: "smooth" });
    if (banner.kind === "error") return;
    const timer = setTimeout(() => setBanner(null), BANNER_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  function update<K extends keyof NewsFormValues>(field: K, value: NewsFormValues[K]) {
    setValues((previous) => ({ ...previous, [field]: value }));
    const key: Field = field === "body" ? "fullContent" : (field as Exclude<K, "body">);
    if (errors[key]) setErrors(({ [key]: _removed, ...rest }) => rest);
  }

  function onPick(file: PickedFile | null) {
    setPicked(file);
    if (errors.media) setErrors(({ media: _removed, ...rest }) => rest);
    if (file) {
      const problem = checkNewsMediaFile(file.file);
      if (problem) {
        setErrors((previous) => ({ ...previous, media: problem }));
        setPicked(null);
      }
    }
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === "submitting") return;
    // The button pressed says what to do with the item (Enter in a field presses the first one: a draft, the safe one).
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === "unpublish") {
      setAskUnpublish(true);
      return;
    }
    const intent = (submitter?.value || "published") as NewsStatus;
    send(intent, publication?.version);
  }

  /** "Salvar mesmo assim" (and then the choices): a merge on the version this form was opened on (news-merge.ts). */
  function sendMerged(choices?: Partial<Record<MergeField, MergeChoice>>) {
    if (!conflict) return;
    const changed = fieldsChangedByMe(values, opened.initial, { picked: Boolean(picked), removed: removeMedia && !picked });
    const seen = choices ? conflict.merge?.current.version : undefined;
    send(conflict.intent, publication?.version, conflict.unpublish, { changed, choices, seen });
  }

  function send(
    intent: NewsStatus,
    version: number | undefined,
    unpublish = false,
    merge?: { changed: MergeField[]; choices?: Partial<Record<MergeField, MergeChoice>> | undefined; seen?: number | undefined },
  ) {
    if (!storeConnected) {
      setBanner({ kind: "warning", message: t.newsForm.driveRequired });
      return;
    }
    setConflict(null);
    const parsed = newsFormSchema.safeParse({
      ...values,
      isHighlighted: values.isHighlighted,
      status: intent,
      publishAt: intent === "scheduled" ? publishAt : undefined,
    });
    const nextErrors: Partial<Record<Field, string>> = {};
    if (!parsed.success) {
      // The body's problems show under the body, whichever of its two fields they were found in.
      for (const issue of parsed.error.issues) nextErrors[(issue.path[0] === "body" ? "fullContent" : issue.path[0]) as Field] ??= issue.message;
    }
    const fileProblem = picked ? checkNewsMediaFile(picked.file) : null;
    if (fileProblem) nextErrors.media = fileProblem;
    const noDescription = missingImageDescription(Boolean(picked?.file.type.startsWith("image/")), values.mediaDescription);
    if (noDescription) nextErrors.mediaDescription = noDescription;
    setErrors(nextErrors);
    if (Object.keys(nextErrors).length > 0) return;

    const body = new FormData();
    for (const [key, value] of Object.entries(values)) {
      if (key === "isHighlighted") {
        if (value) body.append(key, "on");
      } else if (key === "body") body.append(key, JSON.stringify(value));
      else body.append(key, String(value));
    }
    if (removeMedia && !picked) body.append("removeMedia", "on");
    if (unpublish) body.append("unpublish", "on");
    body.append("status", intent);
    if (intent === "scheduled") body.append("publishAt", publishAt);
    if (editing && version !== undefined) body.append("version", String(version));
    if (merge) {
      body.append("merge", "on");
      body.append("mergeChanged", merge.changed.join(","));
      if (merge.choices && merge.seen !== undefined) {
        body.append("mergeChoices", encodeChoices(merge.choices));
        body.append("mergeSeen", String(merge.seen));
      }
    }
    if (picked) body.append("media", picked.file, picked.file.name);

    setBanner(null);
    submit.post(body, Boolean(picked), {
      onSaved(answer) {
        const message =
          answer.status === "review"
            ? t.newsForm.reviewSaved
            : answer.status === "draft"
              ? t.newsForm.draftSaved
              : answer.status === "scheduled" && answer.publishedAt
                ? t.newsForm.scheduledSaved(formatDateTime(answer.publishedAt, timeZone))
                : t.newsForm.success(editing, answer.media, storeLabel);
        if (!editing || unpublish) {
          // A new story's first save, or an unpublish: on to its edit page, which says what happened and links to it.
          navigate(editPageAfterSave(answer.id, unpublish ? UNPUBLISHED_OUTCOME : (answer.status ?? "published"), answer.version, answer.media));
          return;
        }
        setBanner({ kind: "success", message });
        const id = answer.id;
        timers.current.push(setTimeout(() => navigate(`/article/${id}`), REDIRECT_AFTER_EDIT_MS));
      },
      onConflict(current, merged) {
        // Someone else saved first: nothing is lost, the editor sees what changed (or, after "Salvar mesmo assim",
        // the fields both changed, side by side) and decides.
        setConflict({ changed: changedFields(current, opened.initial, publication, defaultAuthor), current, merge: merged, intent, unpublish });
      },
      onFailed: fail,
    });
  }

  function fail(detail: string) {
    const message = t.newsForm.submitError(editing, detail);
    setBanner({ kind: "error", message });
    window.alert(message);
  }

  const busy = submit.busy;
  const fieldProps = (field: Exclude<keyof NewsFormValues, "body">) => ({
    id: `${formId}-${field}`,
    name: field,
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `${formId}-${field}-erro` : undefined,
    disabled: busy,
  });
  const fieldError = (field: Field) =>
    errors[field] ? (
      <p id={`${formId}-${field}-erro`} className={styles.error}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <>
      {drive ? <DriveForms /> : null}
      <Form method="post" encType="multipart/form-data" className={styles.form} onSubmit={onSubmit} noValidate aria-busy={busy}>
        <div className={styles.head}>
          <h1 className="page-title">{editing ? t.newsForm.editTitle : t.newsForm.createTitle}</h1>
          <label
            className={styles.star}
            title={values.isHighlighted ? t.newsForm.highlightOff : t.newsForm.highlightOn}
            data-active={values.isHighlighted}
          >
            <input
              type="checkbox"
              name="isHighlighted"
              className="visually-hidden"
              checked={values.isHighlighted}
              onChange={(event) => update("isHighlighted", event.target.checked)}
              disabled={busy}
              aria-label={values.isHighlighted ? t.newsForm.highlightOff : t.newsForm.highlightOn}
            />
            <Star aria-hidden="true" size={28} fill={values.isHighlighted ? "currentColor" : "none"} />
            <span>{values.isHighlighted ? t.newsForm.highlighted : t.newsForm.notHighlighted}</span>
          </label>
        </div>

        {banner ? <Banner ref={bannerRef} kind={banner.kind} message={banner.message} /> : null}
        {conflict ? (
          <NewsConflictPanel
            key={conflict.merge?.current.version ?? "conflict"}
            conflict={conflict}
            timeZone={timeZone}
            onReload={() => onReload?.()}
            onOverwrite={() => sendMerged()}
            onChoose={(choices) => sendMerged(choices)}
          />
        ) : null}
        {landed && newsId ? (
          // The message is the banner (it clears after 3 s); the links stay.
          <div className={styles.landed} data-testid="news-landed">
            <p className={styles.landedLinks}>
              <Link to={`/article/${newsId}?previa=1`}>{t.newsForm.preview}</Link>
              {landed.published ? <Link to={`/article/${newsId}`}>{t.newsForm.viewPublished}</Link> : null}
            </p>
          </div>
        ) : null}
        {editing && publication ? (
          <p className={styles.hint} data-testid="news-status">
            {t.newsForm.currentStatus(
              t.newsForm.statusLabel[publication.status],
              publication.status === "scheduled" ? formatDateTime(publication.publishedAt, timeZone) : null,
            )}{" "}
            {/* The history (compare, restore) is an editor's. */}
            {reporter ? null : <Link to={`/edit-news/${newsId}/historico`}>{t.revisions.link}</Link>}
          </p>
        ) : null}
        {drive ? (
          <DriveConnectionCard status={drive} warning={t.newsForm.driveRequired} />
        ) : !storeConnected ? (
          <Banner kind="warning" message={t.newsForm.driveRequired} />
        ) : null}

        <div className={styles.field}>
          <label htmlFor={`${formId}-title`}>{t.newsForm.title}</label>
          <input {...fieldProps("title")} value={values.title} onChange={(event) => update("title", event.target.value)} />
          {fieldError("title")}
        </div>
        <div className={styles.field}>
          <label htmlFor={`${formId}-subtitle`}>{t.newsForm.subtitle}</label>
          <textarea {...fieldProps("subtitle")} rows={4} value={values.subtitle} onChange={(event) => update("subtitle", event.target.value)} />
          {fieldError("subtitle")}
        </div>
        <NewsBodyField formId={formId} body={values.body} onChange={(body) => update("body", body)} error={errors.fullContent} disabled={busy} />
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor={`${formId}-category`}>{t.newsForm.category}</label>
            <input
              {...fieldProps("category")}
              placeholder={t.newsForm.categoryHint}
              value={values.category}
              onChange={(event) => update("category", event.target.value)}
              aria-describedby={errors.category ? `${formId}-category-erro` : `${formId}-category-dica`}
              list={`${formId}-categorias`}
              autoComplete="off"
            />
            <datalist id={`${formId}-categorias`} data-testid="category-suggestions">
              {categorySuggestions.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <p id={`${formId}-category-dica`} className={styles.hint}>
              {t.newsForm.categoryHint}
            </p>
            {fieldError("category")}
          </div>
          <div className={styles.field}>
            <label htmlFor={`${formId}-author`}>{t.newsForm.author}</label>
            <input
              {...fieldProps("author")}
              placeholder={defaultAuthor}
              value={values.author}
              onChange={(event) => update("author", event.target.value)}
            />
            <p className={styles.hint}>{t.newsForm.authorHint(defaultAuthor)}</p>
          </div>
        </div>

        <NewsMediaField
          formId={formId}
          picked={picked}
          onPick={onPick}
          current={currentMedia}
          removeMedia={removeMedia}
          onRemoveCurrent={() => setRemoveMedia(true)}
          progress={progress}
          busy={busy}
          values={values}
          onText={(field, value) => update(field, value)}
          errors={errors}
        >
          {editing && publication ? <input type="hidden" name="version" value={publication.version} /> : null}

          {live || reporter ? null : (
            <div className={styles.field}>
              <label htmlFor={`${formId}-publishAt`}>{t.newsForm.publishAt}</label>
              <input
                id={`${formId}-publishAt`}
                name="publishAt"
                type="datetime-local"
                value={publishAt}
                onChange={(event) => {
                  setPublishAt(event.target.value);
                  if (errors.publishAt) setErrors(({ publishAt: _removed, ...rest }) => rest);
                }}
                disabled={busy}
                aria-invalid={errors.publishAt ? true : undefined}
                aria-describedby={errors.publishAt ? `${formId}-publishAt-erro` : `${formId}-publishAt-dica`}
              />
              <p id={`${formId}-publishAt-dica`} className={styles.hint}>
                {t.newsForm.publishAtHint(timeZone)}
              </p>
              {fieldError("publishAt")}
            </div>
          )}
        </NewsMediaField>

        <div className={styles.actions}>
          <Link to={editing && newsId ? `/article/${newsId}` : "/news-list"} className={buttons.secondary}>
            {t.newsForm.cancel}
          </Link>
          {reporter ? (
            <>
              <button type="submit" name="status" value="draft" className={buttons.secondary} disabled={busy}>
                {t.newsForm.saveDraft}
              </button>
              <button type="submit" name="status" value="review" className={`${buttons.primary} ${styles.submit}`} disabled={busy}>
                {busy ? t.newsForm.saving : t.newsForm.submitReview}
              </button>
            </>
          ) : live ? null : (
            <>
              {/* The first submit button is what Enter in a field presses: saving a draft never publishes by accident. */}
              <button type="submit" name="status" value="draft" className={buttons.secondary} disabled={busy}>
                {t.newsForm.saveDraft}
              </button>
              <button type="submit" name="status" value="scheduled" className={buttons.secondary} disabled={busy}>
                {t.newsForm.schedule}
              </button>
            </>
          )}
          {/* Live: Enter presses "Salvar alterações" (first), which keeps the story published. */}
          {reporter ? null : (
            <button type="submit" name="status" value="published" className={`${buttons.primary} ${styles.submit}`} disabled={busy}>
              {busy ? <span className={styles.spinner} aria-hidden="true" /> : null}
              {busy ? t.newsForm.saving : live ? t.newsForm.submitEdit : t.newsForm.submitCreate}
            </button>
          )}
          {live ? (
            // With JavaScript it opens the dialog (onSubmit); without, the server answers with the same question.
            <button
              ref={unpublishButton}
              type="submit"
              name="unpublish"
              value="ask"
              // Without JavaScript the answer (the question) opens scrolled to it.
              formAction="#confirmar-despublicar"
              className={`${buttons.secondary} ${styles.unpublish}`}
              disabled={busy}
            >
              {t.newsForm.unpublish}
            </button>
          ) : null}
        </div>
        {live && serverResult?.confirmUnpublish ? (
          // Without JavaScript: the question the dialog asks, with the button that confirms (it sends the form again).
          // After the actions, so Enter in a field still presses "Salvar alterações" (the first submit button).
          <div id="confirmar-despublicar" className={styles.confirm} role="alert" data-testid="unpublish-confirm">
            <h2>{t.newsForm.unpublishTitle}</h2>
            <p>{t.newsForm.unpublishText}</p>
            <p className={styles.landedLinks}>
              <button type="submit" name="unpublish" value="on" className={buttons.primary}>
                {t.newsForm.unpublishConfirm}
              </button>
              <Link to={`/edit-news/${newsId}`} className={buttons.secondary}>
                {t.newsForm.unpublishCancel}
              </Link>
            </p>
          </div>
        ) : null}
      </Form>
      <ConfirmDialog
        open={askUnpublish}
        onOpenChange={setAskUnpublish}
        title={t.newsForm.unpublishTitle}
        text={t.newsForm.unpublishText}
        confirmLabel={t.newsForm.unpublishConfirm}
        cancelLabel={t.newsForm.unpublishCancel}
        onConfirm={() => send("draft", publication?.version, true)}
        danger
        testId="unpublish-dialog"
        returnFocusTo={unpublishButton}
      />
    </>
  );
}

function firstErrors(fieldErrors: Partial<Record<string, string[]>> | undefined): Partial<Record<Field, string>> {
  const result: Partial<Record<Field, string>> = {};
  for (const [field, messages] of Object.entries(fieldErrors ?? {})) if (messages?.[0]) result[field as Field] = messages[0];
  return result;
}
