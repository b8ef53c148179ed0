import { useEffect, useRef, useState } from "react";
import { data, type ShouldRevalidateFunctionArgs, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/sponsor-manager";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { AppError, diskFullOr, FieldsError, retryAfterHeaders } from "#app/.server/errors.ts";
import { readSponsorSubmission, withUploadSlot } from "#app/.server/http/submissions.server.ts";
import { storeStatusOf } from "#app/.server/storage/store-status.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import { DriveConnectionCard, DriveForms } from "#app/components/admin/drive-connection.tsx";
import { t } from "#app/i18n/newsroom.ts";
import type { SponsorView } from "#app/lib/news-view.ts";
import type { FieldErrors } from "#app/lib/zod.ts";
import { DeleteSponsorDialog } from "#app/components/admin/delete-sponsor-dialog.tsx";
import { SponsorAddForm } from "#app/components/admin/sponsor-add-form.tsx";
import { SponsorItem } from "#app/components/admin/sponsor-item.tsx";
import type { SponsorActionResult, SponsorIntent } from "#app/lib/sponsor-schema.ts";
import panel from "#app/components/admin/panel.module.css";
import styles from "#app/components/admin/sponsor-manager.module.css";
import { routeFacts } from "#app/lib/route-facts.ts";

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
  // Why a logo cannot be added now: a Google Drive to connect, or another store that does not answer.
  const storeProblem = drive ? t.sponsors.driveRequired : t.storage.down.sponsor(t.storage.names[services.store.name] ?? services.store.name);
  return { sponsors: list, loadFailed, storeConnected, storeProblem, drive };
}

const INTENTS = new Set<string>(["add", "update", "move", "delete"]);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const services = servicesOf(context);
  const { sponsorEditor, log } = services;
  let intent = "add" as SponsorIntent;
  let id: string | null = null;
  try {
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const { fields, file } = await readSponsorSubmission(request, services);
      if (!INTENTS.has(fields.intent ?? "")) {
        await file?.cleanup();
        throw new AppError("invalid_intent", t.sponsors.unknownIntent, 400);
      }
      intent = fields.intent as SponsorIntent;
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

export default function SponsorManager({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const adding = pendingIntent === "add";
  const busyId = pendingIntent && pendingIntent !== "add" ? navigation.formData?.get("id") : null;
  const [deleting, setDeleting] = useState<SponsorView | null>(null);
  const deleteReturnFocus = useRef<HTMLButtonElement | null>(null);
  const { sponsors, loadFailed, storeConnected, storeProblem, drive } = loaderData;
  // The last answer stays shown: a live update (sponsorsUpdated, which this very change sends) revalidates the page,
  // and React Router drops `actionData` on a revalidation.
  const [result, setResult] = useState(actionData as SponsorActionResult | undefined);
  useEffect(() => {
    if (actionData) setResult(actionData as SponsorActionResult);
  }, [actionData]);
  const addResult = result?.intent === "add" ? result : null;

  // After a move, the focus stays on the moved sponsor's button (the other one when it reached an end).
  useEffect(() => {
    if (result?.intent !== "move" || !result.ok || navigation.state !== "idle" || !result.id) return;
    const buttons = [...document.querySelectorAll<HTMLButtonElement>(`[data-move-for="${CSS.escape(result.id)}"]`)];
    const last = document.activeElement instanceof HTMLButtonElement ? document.activeElement.dataset.moveDirection : undefined;
    const same = buttons.find((button) => button.dataset.moveDirection === last && !button.disabled);
    (same ?? buttons.find((button) => !button.disabled))?.focus();
  }, [result, navigation.state]);

  return (
    <div className="page">
      <h1 className="page-title">{t.sponsors.title}</h1>

      {drive ? (
        <>
          <DriveForms />
          <DriveConnectionCard status={drive} warning={t.sponsors.driveRequired} />
        </>
      ) : !storeConnected ? (
        <Banner kind="warning" message={storeProblem} />
      ) : null}

      <SponsorAddForm
        result={addResult}
        adding={adding}
        idle={navigation.state === "idle"}
        storeConnected={storeConnected}
        storeProblem={storeProblem}
      />

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
            {sponsors.map((sponsor, index) => (
              <SponsorItem
                key={sponsor.id}
                sponsor={sponsor}
                index={index}
                count={sponsors.length}
                busy={busyId === sponsor.id}
                saving={busyId === sponsor.id && pendingIntent === "update"}
                result={result}
                onDelete={(chosen, button) => {
                  deleteReturnFocus.current = button;
                  setDeleting(chosen);
                }}
              />
            ))}
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

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Sponsors and the media store connection: admins only. */
export const handle = routeFacts({ cache: false, uploads: true, role: "admin" });
