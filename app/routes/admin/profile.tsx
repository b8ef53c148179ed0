import { useEffect, useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/profile";
import { NO_STORE, privatePageHeaders } from "#app/lib/cache-headers.ts";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { AppError, diskFullOr, FieldsError, retryAfterHeaders } from "#app/.server/errors.ts";
import { readProfileSubmission, withUploadSlot } from "#app/.server/http/submissions.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import { MediaImage } from "#app/components/news/media-image.tsx";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/newsroom.ts";
import { PROFILE_LIMITS } from "#app/lib/limits.ts";
import type { PersonView } from "#app/lib/person.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { termPath } from "#app/lib/slug.ts";
import type { FieldErrors } from "#app/lib/zod.ts";
import styles from "./profile.module.css";

/**
 * A member's public profile: their own (every role), or anyone's for an admin (`?membro={userId}`, linked from
 * /equipe). The service checks who may edit whom again.
 */
export const handle = routeFacts({ cache: false, uploads: true, role: "reporter" });

const tp = t.profile;

export function meta() {
  return noindexMeta(tp.pageTitle);
}

/** Whose profile: `?membro=` when given, else the viewer's own. */
function targetOf(request: Request, viewerId: string): string {
  return new URL(request.url).searchParams.get("membro")?.trim() || viewerId;
}

/** A refusal from the service as the page's error: 403 and 404 with their message. */
function pageError(error: unknown): never {
  if (error instanceof AppError && (error.status === 403 || error.status === 404)) {
    throw data({ code: error.code, message: error.message }, { status: error.status, headers: { "Cache-Control": NO_STORE } });
  }
  throw error;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireRole(request, context, handle);
  const { profiles } = servicesOf(context);
  const target = targetOf(request, viewer.userId);
  const form = await profiles.formOf(viewer, target).catch(pageError);
  return { ...form, own: target === viewer.userId };
}

interface ActionData {
  ok: string | null;
  error: string | null;
  fields: FieldErrors | null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const services = servicesOf(context);
  const { profiles, log } = services;
  const target = targetOf(request, viewer.userId);
  try {
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const { fields, file } = await readProfileSubmission(request, services);
      await profiles.save(viewer, target, fields, file);
      return data<ActionData>({ ok: tp.saved, error: null, fields: null }, { headers: { "Cache-Control": NO_STORE } });
    });
  } catch (thrown) {
    const error = diskFullOr(thrown);
    if (!(error instanceof AppError) || error.status >= 500) log.error({ err: error }, "profile save failed");
    const own = error instanceof AppError && error.status < 500;
    return data<ActionData>(
      {
        ok: null,
        error: own ? (error as AppError).message : tp.saveFailed,
        fields: error instanceof FieldsError ? (error.fields as FieldErrors) : null,
      },
      { status: error instanceof AppError ? error.status : 500, headers: { "Cache-Control": NO_STORE, ...retryAfterHeaders(error) } },
    );
  }
}

export const headers = privatePageHeaders;

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { person, own, saved } = loaderData;
  // The save's answer stays shown: the save's own event revalidates the page, and React Router then drops `actionData`.
  const [result, setResult] = useState(actionData);
  useEffect(() => {
    if (actionData) setResult(actionData);
  }, [actionData]);
  const errors = result?.fields ?? {};
  return (
    <div className="page">
      <h1 className="page-title">{own ? tp.pageTitle : tp.otherTitle(person.name)}</h1>
      <p className={styles.intro}>{tp.intro}</p>
      {result?.ok ? <Banner kind="success" message={result.ok} /> : null}
      {result?.error ? <Banner kind="error" message={result.error} /> : null}
      <section className={styles.card}>
        {saved ? (
          <p>
            <Link to={termPath("author", person.slug)}>{tp.publicPage}</Link>
          </p>
        ) : null}
        <ProfileFields person={person} errors={errors} busy={busy} />
      </section>
    </div>
  );
}

function ProfileFields({ person, errors, busy }: { person: PersonView; errors: FieldErrors; busy: boolean }) {
  const err = (field: string) =>
    errors[field]?.[0] ? (
      <p id={`perfil-${field}-erro`} className={styles.error} role="alert">
        {errors[field]?.[0]}
      </p>
    ) : null;
  const invalid = (field: string) => (errors[field] ? { "aria-invalid": true, "aria-describedby": `perfil-${field}-erro` } : {});
  return (
    <Form method="post" encType="multipart/form-data" className={styles.form} data-testid="profile-form">
      <div className={styles.field}>
        <label htmlFor="perfil-displayName">{tp.displayName}</label>
        <input
          id="perfil-displayName"
          name="displayName"
          defaultValue={person.name}
          required
          maxLength={PROFILE_LIMITS.displayName}
          {...invalid("displayName")}
        />
        {err("displayName")}
      </div>
      <div className={styles.field}>
        <label htmlFor="perfil-bio">{tp.bio}</label>
        <textarea id="perfil-bio" name="bio" rows={4} defaultValue={person.bio} maxLength={PROFILE_LIMITS.bio} {...invalid("bio")} />
        <p className={styles.hint}>{tp.bioHint}</p>
        {err("bio")}
      </div>
      <div className={styles.field}>
        <label htmlFor="perfil-photo">{tp.photo}</label>
        {person.photo ? (
          <div className={styles.photo}>
            <MediaImage media={person.photo} alt={tp.currentPhoto} sizes="96px" width={96} height={96} />
            <label>
              <input type="checkbox" name="removePhoto" value="on" /> {tp.removePhoto}
            </label>
          </div>
        ) : null}
        <input id="perfil-photo" name="photo" type="file" accept="image/*" {...invalid("photo")} />
        <p className={styles.hint}>{tp.photoHint}</p>
      </div>
      {(
        [
          ["linkX", tp.linkX, person.links.x],
          ["linkInstagram", tp.linkInstagram, person.links.instagram],
          ["linkSite", tp.linkSite, person.links.site],
        ] as const
      ).map(([field, label, value]) => (
        <div className={styles.field} key={field}>
          <label htmlFor={`perfil-${field}`}>{label}</label>
          <input
            id={`perfil-${field}`}
            name={field}
            type="url"
            inputMode="url"
            defaultValue={value ?? ""}
            maxLength={PROFILE_LIMITS.link}
            placeholder="https://"
            {...invalid(field)}
          />
          {err(field)}
        </div>
      ))}
      <div>
        <button type="submit" className={buttons.primary} disabled={busy}>
          {tp.save}
        </button>
      </div>
    </Form>
  );
}
