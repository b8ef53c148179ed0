import { ArrowDown, ArrowUp, ImagePlus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, Form, type ShouldRevalidateFunctionArgs, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/sponsor-manager";
import { noindexMeta } from "../../lib/seo.ts";
import { servicesOf } from "../../.server/context.server.ts";
import { requireRole } from "../../.server/auth/guards.server.ts";
import { AppError, diskFullOr, FieldsError, retryAfterHeaders } from "../../.server/errors.ts";
import { readSponsorSubmission, withUploadSlot } from "../../.server/http/submissions.server.ts";
import { storeStatusOf } from "../../.server/storage/store-status.server.ts";
import { Banner } from "../../components/admin/banner.tsx";
import { DriveConnectionCard, DriveForms } from "../../components/admin/drive-connection.tsx";
import { MediaImage } from "../../components/news/media-image.tsx";
import buttons from "../../components/ui/button.module.css";
import { t } from "../../i18n/newsroom.ts";
import { checkSponsorImageFile } from "../../lib/news-schema.ts";
import { SPONSOR_LIMITS } from "../../lib/limits.ts";
import type { SponsorView } from "../../lib/news-view.ts";
import type { FieldErrors } from "../../lib/zod.ts";
import { DeleteSponsorDialog } from "../../components/admin/delete-sponsor-dialog.tsx";
import panel from "../../components/admin/panel.module.css";
import styles from "./sponsor-manager.module.css";
import { routeFacts } from "../../lib/route-facts.ts";

export function meta() {
  return noindexMeta(t.sponsors.title);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireRole(request, context, handle);
  const services = servicesOf(context);
  const { sponsors, log } = services;
  let list: SponsorView[] = [];
  let loadFailed = false;
  try {
    list = await sponsors.listSponsors({ includeInactive: true });
  } catch (error) {
    log.error({ err: error }, "sponsor manager load failed");
    loadFailed = true;
  }
  const { storeConnected, drive } = await storeStatusOf(request, services);
  return { sponsors: list, loadFailed, storeConnected, drive };
}

type Intent = "add" | "update" | "move" | "delete";
const INTENTS = new Set<string>(["add", "update", "move", "delete"]);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const services = servicesOf(context);
  const { sponsorEditor, log } = services;
  let intent = "add" as Intent;
  let id: string | null = null;
  try {
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const { fields, file } = await readSponsorSubmission(request, services);
      if (!INTENTS.has(fields.intent ?? "")) {
        await file?.cleanup();
        throw new AppError("invalid_intent", t.sponsors.unknownIntent, 400);
      }
      intent = fields.intent as Intent;
      id = fields.id ?? null;
      if (intent !== "add") await file?.cleanup();
      // Without JavaScript the delete button posts straight here: the page then asks (the dialog sends `confirmed`).
      if (intent === "delete" && fields.confirmed !== "yes") return { intent, id, ok: null, error: null, fields: null, confirm: true };
      if (intent === "delete") {
        await sponsorEditor.deleteSponsor(id ?? "");
        return { intent, id, ok: t.sponsors.removed, error: null, fields: null };
      }
      if (intent === "move") {
        const { position } = await sponsorEditor.moveSponsor(
          id ?? "",
          /^\d{1,9}$/.test(fields.position ?? "") ? Number(fields.position) : Number.NaN,
        );
        return { intent, id, ok: t.sponsors.moved(fields.name ?? "", position), error: null, fields: null };
      }
      if (intent === "update") {
        await sponsorEditor.updateSponsor(id ?? "", fields);
        return { intent, id, ok: t.sponsors.saved, error: null, fields: null };
      }
      await sponsorEditor.addSponsor(file, fields);
      return { intent, id, ok: t.sponsors.added, error: null, fields: null };
    });
  } catch (thrown) {
    const error = diskFullOr(thrown);
    // Validation answers (fields, type, size, missing image, store, unknown action) and a full disk keep their own
    // text; anything else the spec's.
    const own =
      error instanceof AppError &&
      /^(upload_|sponsor_image_required|sponsor_not_found|validation_failed|storage_not_connected|invalid_intent|disk_full)/.test(error.code);
    if (!(error instanceof AppError) || error.status >= 500) log.error({ err: error }, "sponsor action failed");
    const fallback = intent === "delete" ? t.sponsors.deleteFailed : intent === "add" ? t.sponsors.addFailed : t.sponsors.updateFailed;
    return data(
      {
        intent,
        id,
        ok: null,
        error: own ? (error as AppError).message : fallback,
        fields: error instanceof FieldsError ? (error.fields as FieldErrors) : null,
      },
      { status: error instanceof AppError ? error.status : 500, headers: retryAfterHeaders(error) },
    );
  }
}

/**
 * After a failed add the data is reloaded too (React Router skips it after an error status): the failure may have
 * been the Google Drive connection dropping (revoked token), which the page must then show.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return defaultShouldRevalidate || (actionStatus !== undefined && actionStatus >= 400);
}

type ActionResult = { intent: Intent; id: string | null; ok: string | null; error: string | null; fields: FieldErrors | null; confirm?: boolean };

export default function SponsorManager({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const adding = pendingIntent === "add";
  const busyId = pendingIntent && pendingIntent !== "add" ? navigation.formData?.get("id") : null;
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SponsorView | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const deleteReturnFocus = useRef<HTMLButtonElement | null>(null);
  const { sponsors, loadFailed, storeConnected, drive } = loaderData;
  // The last answer stays shown: a live update (sponsorsUpdated, which this very change sends) revalidates the page,
  // and React Router drops `actionData` on a revalidation.
  const [result, setResult] = useState(actionData as ActionResult | undefined);
  useEffect(() => {
    if (actionData) setResult(actionData as ActionResult);
  }, [actionData]);
  const addResult = result?.intent === "add" ? result : null;
  const addErrors = addResult?.fields ?? {};

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // After a successful add, clear the form.
  useEffect(() => {
    if (result?.intent === "add" && result.ok && navigation.state === "idle") {
      setFile(null);
      formRef.current?.reset();
    }
  }, [result, navigation.state]);

  // After a move, the focus stays on the moved sponsor's button (the other one when it reached an end).
  useEffect(() => {
    if (result?.intent !== "move" || !result.ok || navigation.state !== "idle" || !result.id) return;
    const buttons = [...document.querySelectorAll<HTMLButtonElement>(`[data-move-for="${CSS.escape(result.id)}"]`)];
    const last = document.activeElement instanceof HTMLButtonElement ? document.activeElement.dataset.moveDirection : undefined;
    const same = buttons.find((button) => button.dataset.moveDirection === last && !button.disabled);
    (same ?? buttons.find((button) => !button.disabled))?.focus();
  }, [result, navigation.state]);

  function clear() {
    setFile(null);
    if (inputRef.current) inputRef.current.value = "";
  }

  const errorOf = (field: string) => addErrors[field]?.[0] ?? null;

  return (
    <div className="page">
      <h1 className="page-title">{t.sponsors.title}</h1>

      {drive ? (
        <>
          <DriveForms />
          <DriveConnectionCard status={drive} warning={t.sponsors.driveRequired} />
        </>
      ) : !storeConnected ? (
        <section className={panel.panel} aria-labelledby="conectar-titulo">
          <h2 id="conectar-titulo">{t.storage.connectTitle}</h2>
          <p>{t.storage.connectText}</p>
          <Banner kind="warning" message={t.sponsors.driveRequired} />
        </section>
      ) : null}

      <section className={panel.panel} aria-labelledby="novo-patrocinador">
        <h2 id="novo-patrocinador">{t.sponsors.addTitle}</h2>
        {addResult?.error ? <Banner kind="error" message={addResult.error} /> : null}
        {addResult?.ok && !adding ? <Banner kind="success" message={addResult.ok} /> : null}
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
              setProblem(t.sponsors.driveRequired);
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
          <SponsorFieldInputs idPrefix="novo" errorOf={errorOf} />
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

      <section className={panel.panel} aria-labelledby="atuais">
        <h2 id="atuais">{t.sponsors.currentTitle}</h2>
        {result && result.intent !== "add" && !result.confirm && navigation.state === "idle" ? (
          <Banner kind={result.error ? "error" : "success"} message={(result.error ?? result.ok) as string} />
        ) : null}
        {loadFailed ? (
          <Banner kind="error" message={t.sponsors.loadFailed} />
        ) : sponsors.length === 0 ? (
          <p className={styles.empty}>{t.sponsors.empty}</p>
        ) : (
          <ol className={styles.grid}>
            {sponsors.map((sponsor, index) => {
              const itemErrors = result?.intent === "update" && result.id === sponsor.id ? (result.fields ?? {}) : {};
              return (
                <li key={sponsor.id} className={styles.item} data-testid="sponsor-item" aria-busy={busyId === sponsor.id}>
                  <MediaImage media={sponsor.image} alt={sponsor.name} sizes="200px" className={styles.logo} width={160} height={160} />
                  <p className={styles.name}>{sponsor.name}</p>
                  <p className={styles.position}>{t.sponsors.position(index + 1, sponsors.length)}</p>
                  {sponsor.active ? null : <p className={styles.inactive}>{t.sponsors.inactive}</p>}
                  <div className={styles.moves}>
                    {(["up", "down"] as const).map((direction) => {
                      const target = direction === "up" ? index : index + 2;
                      const disabled = (direction === "up" ? index === 0 : index === sponsors.length - 1) || busyId === sponsor.id;
                      return (
                        <Form method="post" key={direction}>
                          <input type="hidden" name="intent" value="move" />
                          <input type="hidden" name="id" value={sponsor.id} />
                          <input type="hidden" name="name" value={sponsor.name} />
                          <input type="hidden" name="position" value={target} />
                          <button
                            type="submit"
                            className={styles.move}
                            disabled={disabled}
                            data-move-for={sponsor.id}
                            data-move-direction={direction}
                            aria-label={direction === "up" ? t.sponsors.moveUp(sponsor.name) : t.sponsors.moveDown(sponsor.name)}
                          >
                            {direction === "up" ? <ArrowUp aria-hidden="true" size={18} /> : <ArrowDown aria-hidden="true" size={18} />}
                          </button>
                        </Form>
                      );
                    })}
                  </div>
                  <details className={styles.edit} open={Object.keys(itemErrors).length > 0 || undefined}>
                    <summary>{t.sponsors.edit(sponsor.name)}</summary>
                    <Form method="post" className={styles.editForm} noValidate>
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="id" value={sponsor.id} />
                      <SponsorFieldInputs
                        idPrefix={`patrocinador-${sponsor.id}`}
                        sponsor={sponsor}
                        errorOf={(field) => itemErrors[field]?.[0] ?? null}
                      />
                      <button type="submit" className={buttons.primary} disabled={busyId === sponsor.id}>
                        {busyId === sponsor.id && pendingIntent === "update" ? t.sponsors.saving : t.sponsors.save}
                      </button>
                    </Form>
                  </details>
                  {result?.confirm && result.id === sponsor.id ? (
                    <Form method="post" className={styles.confirm} role="group" aria-label={t.sponsors.deleteTitle}>
                      <p>{t.sponsors.deleteText(sponsor.name)}</p>
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="id" value={sponsor.id} />
                      <input type="hidden" name="confirmed" value="yes" />
                      <div className={styles.addActions}>
                        <a href="/SponsorManager" className={buttons.secondary}>
                          {t.sponsors.deleteCancel}
                        </a>
                        <button type="submit" className={buttons.primary}>
                          {t.sponsors.deleteConfirm}
                        </button>
                      </div>
                    </Form>
                  ) : null}
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={sponsor.id} />
                    <button
                      type="submit"
                      className={styles.delete}
                      disabled={busyId === sponsor.id}
                      aria-label={t.sponsors.delete(sponsor.name)}
                      onClick={(event) => {
                        // With JavaScript: the alert dialog asks first (without it, the server's confirmation does).
                        event.preventDefault();
                        deleteReturnFocus.current = event.currentTarget;
                        setDeleting(sponsor);
                      }}
                    >
                      <Trash2 aria-hidden="true" size={18} />
                    </button>
                  </Form>
                </li>
              );
            })}
          </ol>
        )}
      </section>
      <DeleteSponsorDialog
        name={deleting?.name ?? ""}
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        returnFocusTo={deleteReturnFocus}
        onConfirm={() => {
          if (deleting) submit({ intent: "delete", id: deleting.id, confirmed: "yes" }, { method: "post" });
          setDeleting(null);
        }}
      />
    </div>
  );
}

/** The name, link and window fields, for a new sponsor or to edit one. */
function SponsorFieldInputs({ idPrefix, sponsor, errorOf }: { idPrefix: string; sponsor?: SponsorView; errorOf(field: string): string | null }) {
  const fields = [
    { name: "name", label: t.sponsors.nameLabel, type: "text", value: sponsor?.name, required: true, hint: null },
    { name: "link", label: t.sponsors.linkLabel, type: "url", value: sponsor?.link ?? "", required: false, hint: t.sponsors.linkHint },
    { name: "activeFrom", label: t.sponsors.fromLabel, type: "date", value: sponsor?.activeFrom ?? "", required: false, hint: null },
    { name: "activeUntil", label: t.sponsors.untilLabel, type: "date", value: sponsor?.activeUntil ?? "", required: false, hint: null },
  ];
  return (
    <div className={styles.fields}>
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const error = errorOf(field.name);
        const described = [field.hint ? `${id}-dica` : null, error ? `${id}-erro` : null].filter(Boolean).join(" ") || undefined;
        return (
          <div key={field.name} className={styles.field}>
            <label htmlFor={id}>{field.label}</label>
            <input
              id={id}
              name={field.name}
              type={field.type}
              defaultValue={field.value}
              required={field.required}
              maxLength={field.name === "name" ? SPONSOR_LIMITS.name : field.name === "link" ? SPONSOR_LIMITS.link : undefined}
              inputMode={field.type === "url" ? "url" : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={described}
            />
            {field.hint ? (
              <span id={`${id}-dica`} className={styles.hint}>
                {field.hint}
              </span>
            ) : null}
            {error ? (
              <span id={`${id}-erro`} className={styles.problem} role="alert">
                {error}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Sponsors and the media store connection: admins only. */
export const handle = routeFacts({ cache: false, uploads: true, role: "admin" });
