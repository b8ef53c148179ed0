import { CheckCircle2 } from "lucide-react";
import { data, href, Link } from "react-router";
import type { Route } from "./+types/verify-email";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { AuthMessage } from "#app/components/auth/auth-message.tsx";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/newsroom.ts";
import styles from "#app/components/auth/auth.module.css";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

export function meta() {
  return noindexMeta(t.auth.verifyTitle);
}

/** The link of the confirmation mail: confirms the address, then tells the owner their UID (for an admin to grant). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await servicesOf(context).auth.verifyEmail(token);
  const headers = { "Cache-Control": NO_STORE, "Referrer-Policy": "no-referrer" };
  if (!result.ok) return data({ uid: null, message: result.message }, { status: result.status, headers });
  return data({ uid: result.uid, message: null }, { headers });
}

/** The loader's headers reach the browser: no caching and no Referer carrying the token. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby="verify-title">
        <h1 id="verify-title" className={styles.title}>
          {t.auth.verifyTitle}
        </h1>
        {loaderData.uid ? (
          <>
            <p className={styles.success} role="status">
              <CheckCircle2 aria-hidden="true" size={20} /> {t.auth.verifyDone}
            </p>
            <p className={styles.note}>{t.auth.verifyDoneHint}</p>
            <p>
              <code data-testid="auth-uid">{loaderData.uid}</code>
            </p>
          </>
        ) : (
          <AuthMessage failure={{ message: loaderData.message ?? t.auth.verifyInvalid }} />
        )}
        <Link to={href("/admin/login")} className={buttons.primary}>
          {t.auth.backToLogin}
        </Link>
      </section>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
