import { diffWordsWithSpace } from "diff";
import { useRef, useState } from "react";
import { data, Form, href, Link, redirect, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/news-history";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { memberActor, requireRole } from "#app/.server/auth/permissions.server.ts";
import { AppError, publicErrorMessage, requestIdFrom } from "#app/.server/errors.ts";
import { listNewsVersions, type NewsVersionView } from "#app/.server/news/editor/news-revisions.server.ts";
import { listReviewEvents } from "#app/.server/news/publishing/news-review.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import { ConfirmDialog } from "#app/components/admin/confirm-dialog.tsx";
import buttons from "#app/components/ui/button.module.css";
import { formatDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import styles from "./news-history.module.css";
import { routeFacts } from "#app/lib/route-facts.ts";

export function meta() {
  return noindexMeta(t.revisions.metaTitle);
}

/** A piece of a compared field: unchanged, removed (only in the older version) or added (only in the newer). */
interface DiffPart {
  text: string;
  change: "same" | "removed" | "added";
}

const TEXT_FIELDS = ["title", "subtitle", "fullContent", "category", "author"] as const;

/** What changed from `from` to `to`, field by field (only the fields that differ). */
function compare(from: NewsVersionView, to: NewsVersionView) {
  const fields: Array<{ field: string; parts: DiffPart[] }> = [];
  for (const field of TEXT_FIELDS) {
    if (from[field] === to[field]) continue;
    const parts = diffWordsWithSpace(from[field], to[field]).map(
      (part): DiffPart => ({ text: part.value, change: part.added ? "added" : part.removed ? "removed" : "same" }),
    );
    fields.push({ field, parts });
  }
  if (from.isHighlighted !== to.isHighlighted) {
    fields.push({
      field: "isHighlighted",
      parts: [
        { text: from.isHighlighted ? t.revisions.yes : t.revisions.no, change: "removed" },
        { text: to.isHighlighted ? t.revisions.yes : t.revisions.no, change: "added" },
      ],
    });
  }
  if (from.mediaId !== to.mediaId) fields.push({ field: "media", parts: [{ text: t.revisions.mediaChanged, change: "same" }] });
  return fields;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireRole(request, context, handle);
  const { database, config } = servicesOf(context);
  const versions = await listNewsVersions(database.db, params.id);
  if (!versions) throw data({ message: t.news.notFound }, { status: 404 });
  // The review queue's steps (sent for review, approved, returned with a note), each on the version it made.
  const reviewSteps = await listReviewEvents(database.db, params.id);
  const search = new URL(request.url).searchParams;
  const byVersion = (value: string | null) => versions.find((version) => String(version.version) === value);
  // By default: the latest revision against the current version.
  const to = byVersion(search.get("para")) ?? versions[0]!;
  const from = byVersion(search.get("de")) ?? versions.find((version) => version.version < to.version) ?? null;
  return {
    id: params.id,
    title: versions[0]!.title,
    currentVersion: versions[0]!.version,
    versions: versions.map((version) => ({
      revisionId: version.revisionId,
      version: version.version,
      title: version.title,
      savedAt: formatDateTime(version.savedAt, config.timeZone),
      savedBy: version.savedBy,
      status: version.status,
      // What this version did to the publication: "Ana Editora publicou em 25/11/2026 14:32."
      statusChange: version.statusChange
        ? t.revisions.statusChangeBy(
            version.savedBy ?? t.revisions.unknownAuthor,
            version.statusChange.kind === "scheduled"
              ? t.revisions.statusChange.scheduled(
                  version.statusChange.publishedAt ? formatDateTime(version.statusChange.publishedAt, config.timeZone) : "",
                )
              : t.revisions.statusChange[version.statusChange.kind],
            formatDateTime(version.savedAt, config.timeZone),
          )
        : null,
      review: reviewSteps
        .filter((step) => step.version === version.version)
        .map((step) => ({
          kind: step.kind,
          text: t.review.history.by(step.by ?? t.revisions.unknownAuthor, t.review.history[step.kind], formatDateTime(step.at, config.timeZone)),
          note: step.note,
        })),
    })),
    live: versions[0]!.status === "published",
    // Without JavaScript, restoring a version of a live story comes back here first (`?restaurar=`), to confirm.
    confirmRestore: versions.find((version) => version.revisionId !== null && version.revisionId === search.get("restaurar"))?.version ?? null,
    confirmRestoreId: search.get("restaurar"),
    comparison: from ? { from: from.version, to: to.version, fields: compare(from, to) } : null,
    // After a restore: the new version it became.
    restoredAs: byVersion(search.get("restaurada"))?.version ?? null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const { newsEditor, log } = servicesOf(context);
  const form = await request.formData();
  const revisionId = String(form.get("revisionId") ?? "");
  const version = Number(form.get("version"));
  try {
    // A live story changes for readers at once: its restore is applied only when confirmed (the dialog, or the
    // confirmation step without JavaScript).
    if (form.get("confirmed") !== "1") {
      const current = await servicesOf(context).news.getNews(params.id, { includeUnpublished: true });
      if (current.status === "published") {
        throw redirect(`${href("/edit-news/:id/historico", { id: params.id })}?restaurar=${encodeURIComponent(revisionId)}`);
      }
    }
    const result = await newsEditor.restoreRevision(
      params.id,
      revisionId,
      memberActor(viewer),
      Number.isSafeInteger(version) && version > 0 ? version : undefined,
    );
    throw redirect(`${href("/edit-news/:id/historico", { id: params.id })}?restaurada=${result.version}`);
  } catch (error) {
    if (error instanceof Response) throw error;
    const status = error instanceof AppError ? error.status : 500;
    if (status >= 500) log.error({ err: error, reqId: requestIdFrom(request) }, "revision restore failed");
    return data({ error: publicErrorMessage(error, requestIdFrom(request)) }, { status });
  }
}

export default function NewsHistory({ loaderData, actionData }: Route.ComponentProps) {
  const { id, title, versions, comparison, currentVersion, restoredAs, live, confirmRestore, confirmRestoreId } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const submit = useSubmit();
  // The version whose restore the dialog asks about (a live story), and the button that asked.
  const [asking, setAsking] = useState<{ revisionId: string; version: number } | null>(null);
  const askedFrom = useRef<HTMLButtonElement | null>(null);
  const restore = (revisionId: string) =>
    submit({ revisionId, version: String(currentVersion), confirmed: "1" }, { method: "post", preventScrollReset: true });
  return (
    <section className="page-narrow">
      <h1 className="page-title">{t.revisions.title}</h1>
      <p className={styles.lead}>
        <strong>{title}</strong>
      </p>
      <p className={styles.hint}>{t.revisions.intro}</p>
      {restoredAs ? <Banner kind="success" message={t.revisions.restored(restoredAs)} /> : null}
      {actionData && "error" in actionData ? <Banner kind="error" message={actionData.error} /> : null}

      {live && confirmRestore && confirmRestoreId ? (
        <div className={styles.confirm} role="alert" data-testid="restore-confirm">
          <h2>{t.revisions.restoreLiveTitle}</h2>
          <p>{t.revisions.restoreLiveText(confirmRestore)}</p>
          <Form method="post" className={styles.confirmActions}>
            <input type="hidden" name="revisionId" value={confirmRestoreId} />
            <input type="hidden" name="version" value={currentVersion} />
            <input type="hidden" name="confirmed" value="1" />
            <button type="submit" className={buttons.primary} disabled={busy}>
              {t.revisions.restoreConfirm}
            </button>
            <Link to="." className={buttons.secondary}>
              {t.revisions.restoreCancel}
            </Link>
          </Form>
        </div>
      ) : null}

      {versions.length < 2 ? <p>{t.revisions.none}</p> : null}
      <ol className={styles.versions} data-testid="versions">
        {versions.map((version) => (
          <li key={version.version} data-version={version.version}>
            <span className={styles.versionName}>
              {t.revisions.version(version.version)}
              {version.revisionId === null ? ` (${t.revisions.current})` : ""}
            </span>
            <span className={styles.hint}>{t.revisions.savedBy(version.savedBy ?? t.revisions.unknownAuthor, version.savedAt)}</span>
            {version.status ? <span className={styles.hint}>{t.revisions.status(t.newsForm.statusLabel[version.status])}</span> : null}
            {version.statusChange ? (
              <span className={styles.statusChange} data-testid="status-change">
                {version.statusChange}
              </span>
            ) : null}
            {version.review.map((step) => (
              <span key={step.kind} className={styles.statusChange} data-testid="review-step" data-kind={step.kind}>
                {step.text}
                {step.note ? <span className={styles.reviewNote}> {t.review.history.note(step.note)}</span> : null}
              </span>
            ))}
            <span className={styles.versionTitle}>{version.title}</span>
            {version.revisionId ? (
              <span className={styles.versionActions}>
                <Link to={`?de=${version.version}&para=${currentVersion}`} preventScrollReset>
                  {t.revisions.compare}
                </Link>
                <Form method="post">
                  <input type="hidden" name="revisionId" value={version.revisionId} />
                  <input type="hidden" name="version" value={currentVersion} />
                  <button
                    type="submit"
                    className={buttons.secondary}
                    disabled={busy}
                    onClick={(event) => {
                      if (!live) return;
                      // A live story: ask first (without JavaScript the server asks, on this page).
                      event.preventDefault();
                      askedFrom.current = event.currentTarget;
                      setAsking({ revisionId: version.revisionId!, version: version.version });
                    }}
                    aria-label={`${t.revisions.restore}: ${t.revisions.version(version.version)}`}
                  >
                    {t.revisions.restore}
                  </button>
                </Form>
              </span>
            ) : null}
          </li>
        ))}
      </ol>

      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={t.revisions.restoreLiveTitle}
        text={asking ? t.revisions.restoreLiveText(asking.version) : ""}
        confirmLabel={t.revisions.restoreConfirm}
        cancelLabel={t.revisions.restoreCancel}
        onConfirm={() => {
          if (asking) restore(asking.revisionId);
        }}
        testId="restore-dialog"
        returnFocusTo={askedFrom}
      />

      {comparison ? (
        <div className={styles.comparison} data-testid="comparison">
          <h2>
            {t.revisions.version(comparison.from)} → {t.revisions.version(comparison.to)}
          </h2>
          {comparison.fields.length === 0 ? <p>{t.revisions.noChanges}</p> : null}
          <dl>
            {comparison.fields.map(({ field, parts }) => (
              <div key={field} className={styles.field}>
                <dt>{t.revisions.fields[field]}</dt>
                <dd>
                  {parts.map((part, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one comparison, fixed for its render: the position is the identity.
                    <DiffPart key={index} part={part} />
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}

      <p>
        <Link to={href("/edit-news/:id", { id })} className={buttons.secondary}>
          {t.revisions.back}
        </Link>
      </p>
    </section>
  );
}

/** One piece of a field's comparison: added (<ins>), removed (<del>) or unchanged, said in words to screen readers. */
function DiffPart({ part }: { part: { change: string; text: string } }) {
  if (part.change === "added") {
    return (
      <ins>
        <span className="visually-hidden">{t.revisions.added}: </span>
        {part.text}
      </ins>
    );
  }
  if (part.change === "removed") {
    return (
      <del>
        <span className="visually-hidden">{t.revisions.removed}: </span>
        {part.text}
      </del>
    );
  }
  return <span>{part.text}</span>;
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Comparing and restoring versions: editors and admins. */
export const handle = routeFacts({ cache: false, uploads: false, role: "editor" });
