import { ImagePlus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, Form, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import type { Route } from "./+types/sponsor-manager";
import { noindexMeta } from "../../lib/seo.ts";
import { servicesOf } from "../../.server/context.server.ts";
import { requireAdmin } from "../../.server/auth/guards.server.ts";
import { AppError, diskFullOr, retryAfterHeaders } from "../../.server/errors.ts";
import { readSponsorSubmission, withUploadSlot } from "../../.server/http/submissions.server.ts";
import { storeStatusOf } from "../../.server/storage/store-status.server.ts";
import { Banner } from "../../components/admin/banner.tsx";
import { DriveConnectionCard, DriveForms } from "../../components/admin/drive-connection.tsx";
import { MediaImage } from "../../components/news/media-image.tsx";
import buttons from "../../components/ui/button.module.css";
import { t } from "../../i18n/pt-BR.ts";
import { checkSponsorImageFile } from "../../lib/news-schema.ts";
import type { SponsorView } from "../../lib/news-view.ts";
import styles from "./sponsor-manager.module.css";
import { routeFacts } from "../../lib/route-facts.ts";

export function meta() {
  return noindexMeta(t.sponsors.title);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const services = servicesOf(context);
  const { sponsors, log } = services;
  let list: SponsorView[] = [];
  let loadFailed = false;
  try {
    list = await sponsors.listSponsors();
  } catch (error) {
    log.error({ err: error }, "sponsor manager load failed");
    loadFailed = true;
  }
  const { storeConnected, drive } = await storeStatusOf(request, services);
  return { sponsors: list, loadFailed, storeConnected, drive };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const services = servicesOf(context);
  const { sponsorEditor, log } = services;
  let intent = "add";
  try {
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const { fields, file } = await readSponsorSubmission(request, services);
      if (fields.intent !== "add" && fields.intent !== "delete") {
        await file?.cleanup();
        throw new AppError("invalid_intent", t.sponsors.unknownIntent, 400);
      }
      intent = fields.intent;
      if (intent === "delete") {
        await file?.cleanup();
        await sponsorEditor.deleteSponsor(fields.id ?? "");
        return { intent, ok: t.sponsors.removed, error: null };
      }
      await sponsorEditor.addSponsor(file);
      return { intent, ok: t.sponsors.added, error: null };
    });
  } catch (thrown) {
    const error = diskFullOr(thrown);
    // Validation answers (type, size, missing image, store, unknown action) and a full disk keep their own text;
    // anything else the spec's.
    const own = error instanceof AppError && /^(upload_|sponsor_image_required|storage_not_connected|invalid_intent|disk_full)/.test(error.code);
    if (!(error instanceof AppError) || error.status >= 500) log.error({ err: error }, "sponsor action failed");
    const fallback = intent === "delete" ? t.sponsors.deleteFailed : t.sponsors.addFailed;
    return data(
      { intent, ok: null, error: own ? (error as AppError).message : fallback },
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

export default function SponsorManager({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const adding = navigation.state !== "idle" && navigation.formData?.get("intent") === "add";
  const deletingId = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete" ? navigation.formData.get("id") : null;
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const { sponsors, loadFailed, storeConnected, drive } = loaderData;

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // After a successful add, clear the picker.
  useEffect(() => {
    if (actionData?.intent === "add" && actionData.ok && navigation.state === "idle") {
      setFile(null);
      formRef.current?.reset();
    }
  }, [actionData, navigation.state]);

  function clear() {
    setFile(null);
    if (inputRef.current) inputRef.current.value = "";
  }

  return (
    <div className="page">
      <h1 className="page-title">{t.sponsors.title}</h1>

      {drive ? (
        <>
          <DriveForms />
          <DriveConnectionCard status={drive} warning={t.sponsors.driveRequired} />
        </>
      ) : !storeConnected ? (
        <section className={styles.card} aria-labelledby="conectar-titulo">
          <h2 id="conectar-titulo">{t.storage.connectTitle}</h2>
          <p>{t.storage.connectText}</p>
          <Banner kind="warning" message={t.sponsors.driveRequired} />
        </section>
      ) : null}

      <section className={styles.card} aria-labelledby="novo-patrocinador">
        <h2 id="novo-patrocinador">{t.sponsors.addTitle}</h2>
        {actionData?.error ? <Banner kind="error" message={actionData.error} /> : null}
        {actionData?.ok && !adding ? <Banner kind="success" message={actionData.ok} /> : null}
        <Form
          ref={formRef}
          method="post"
          encType="multipart/form-data"
          className={styles.addForm}
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

      <section className={styles.card} aria-labelledby="atuais">
        <h2 id="atuais">{t.sponsors.currentTitle}</h2>
        {loadFailed ? (
          <Banner kind="error" message={t.sponsors.loadFailed} />
        ) : sponsors.length === 0 ? (
          <p className={styles.empty}>{t.sponsors.empty}</p>
        ) : (
          <ul className={styles.grid}>
            {sponsors.map((sponsor, index) => (
              <li key={sponsor.id} className={styles.item} data-testid="sponsor-item" aria-busy={deletingId === sponsor.id}>
                <MediaImage
                  media={sponsor.image}
                  alt={t.footer.sponsorAlt(index + 1)}
                  sizes="200px"
                  className={styles.logo}
                  width={160}
                  height={160}
                />
                <Form method="post">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={sponsor.id} />
                  <button type="submit" className={styles.delete} disabled={deletingId === sponsor.id} aria-label={t.sponsors.delete(index + 1)}>
                    <Trash2 aria-hidden="true" size={18} />
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: false, uploads: true });
