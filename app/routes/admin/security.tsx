import { CheckCircle2, ShieldCheck } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { renderSVG } from "uqr";
import type { Route } from "./+types/security";
import { NO_STORE, privatePageHeaders } from "#app/lib/cache-headers.ts";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { AuthMessage } from "#app/components/auth/auth-message.tsx";
import { TextField } from "#app/components/auth/text-field.tsx";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/newsroom.ts";
import styles from "#app/components/auth/auth.module.css";
import { routeFacts } from "#app/lib/route-facts.ts";

const tf = t.auth.twoFactor;

export function meta() {
  return noindexMeta(tf.pageTitle);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireRole(request, context, handle, { allowWithoutTwoFactor: true });
  const { auth } = servicesOf(context);
  const status = await auth.twoFactorStatus(viewer.userId);
  return { ...status, required: auth.twoFactorRequired() };
}

/** What the page shows after an action: a message, the setup (QR code, key, recovery codes) or new codes. */
interface ActionData {
  error?: string;
  done?: string;
  setup?: { qr: string; secret: string; totpURI: string; backupCodes: string[] };
  backupCodes?: string[];
}

/** The setup as shown: the QR code as an image (SVG made on the server) and the key for typing in. */
function setupView(totpURI: string, backupCodes: string[]): NonNullable<ActionData["setup"]> {
  const svg = renderSVG(totpURI, { border: 2 });
  return {
    qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    secret: new URL(totpURI).searchParams.get("secret") ?? "",
    totpURI,
    backupCodes,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireRole(request, context, handle, { allowWithoutTwoFactor: true });
  const { auth } = servicesOf(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const password = String(form.get("password") ?? "");
  const noStore = { "Cache-Control": NO_STORE };
  switch (intent) {
    case "enable": {
      const started = await auth.startTwoFactor({ password, headers: request.headers });
      if (!started.ok) return data<ActionData>({ error: started.message }, { status: started.status, headers: noStore });
      return data<ActionData>({ setup: setupView(started.totpURI, started.backupCodes) }, { headers: noStore });
    }
    case "confirm": {
      const totpURI = String(form.get("totpURI") ?? "");
      const backupCodes = String(form.get("backupCodes") ?? "")
        .split(",")
        .filter(Boolean);
      const confirmed = await auth.confirmTwoFactor({ code: String(form.get("code") ?? ""), headers: request.headers });
      if (!confirmed.ok) {
        // A mistyped code: the same setup stays on screen (the secret has not changed).
        const setup = totpURI.startsWith("otpauth://") ? setupView(totpURI, backupCodes) : undefined;
        return data<ActionData>({ error: confirmed.message, setup }, { status: confirmed.status, headers: noStore });
      }
      confirmed.headers.set("Cache-Control", NO_STORE);
      return data<ActionData>({ done: tf.enabled }, { headers: confirmed.headers });
    }
    case "disable": {
      const disabled = await auth.disableTwoFactor({ password, headers: request.headers });
      if (!disabled.ok) return data<ActionData>({ error: disabled.message }, { status: disabled.status, headers: noStore });
      disabled.headers.set("Cache-Control", NO_STORE);
      return data<ActionData>({ done: tf.disabled }, { headers: disabled.headers });
    }
    case "regenerate": {
      const generated = await auth.regenerateRecoveryCodes({ password, headers: request.headers });
      if (!generated.ok) return data<ActionData>({ error: generated.message }, { status: generated.status, headers: noStore });
      return data<ActionData>({ done: tf.regenerated, backupCodes: generated.backupCodes }, { headers: noStore });
    }
    default:
      return data<ActionData>({ error: tf.failed }, { status: 400, headers: noStore });
  }
}

export const headers = privatePageHeaders;

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="recovery-title">
      <h2 id="recovery-title" className={styles.subtitle}>
        {tf.recoveryTitle}
      </h2>
      <p className={styles.hint}>{tf.recoveryExplain}</p>
      <ul className={styles.codes} data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const { enabled, hasPassword, required } = loaderData;
  const setup = actionData?.setup;
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby="security-title">
        <h1 id="security-title" className={styles.title}>
          {tf.pageTitle}
        </h1>
        {required && !enabled && !setup ? (
          <p className={styles.hint} role="status">
            {tf.required}
          </p>
        ) : null}
        {actionData?.done ? (
          <p className={styles.success} role="status">
            <CheckCircle2 aria-hidden="true" size={20} /> {actionData.done}
          </p>
        ) : null}
        {actionData?.error ? <AuthMessage failure={{ message: actionData.error }} /> : null}
        <p className={styles.note} data-testid="two-factor-status">
          <ShieldCheck aria-hidden="true" size={18} /> {enabled ? tf.statusOn : tf.statusOff}
        </p>
        <p className={styles.hint}>{tf.explain}</p>

        {!hasPassword ? <p className={styles.hint}>{tf.googleOnly}</p> : null}

        {hasPassword && !enabled && !setup ? (
          <Form method="post" className={styles.form}>
            <input type="hidden" name="intent" value="enable" />
            <TextField name="password" type="password" label={tf.passwordLabel} autoComplete="current-password" required />
            <button type="submit" className={buttons.primary} disabled={busy}>
              {tf.enable}
            </button>
          </Form>
        ) : null}

        {setup && !enabled ? (
          <>
            <p className={styles.hint}>{tf.scan}</p>
            <img src={setup.qr} alt={tf.qrAlt} width={220} height={220} className={styles.qr} />
            <p>
              {tf.secretLabel}: <code data-testid="totp-secret">{setup.secret}</code>
            </p>
            <RecoveryCodes codes={setup.backupCodes} />
            <Form method="post" className={styles.form}>
              <input type="hidden" name="intent" value="confirm" />
              <input type="hidden" name="totpURI" value={setup.totpURI} />
              <input type="hidden" name="backupCodes" value={setup.backupCodes.join(",")} />
              <TextField name="code" type="text" label={tf.code} autoComplete="one-time-code" inputMode="numeric" required />
              <button type="submit" className={buttons.primary} disabled={busy}>
                {tf.confirm}
              </button>
            </Form>
          </>
        ) : null}

        {actionData?.backupCodes ? <RecoveryCodes codes={actionData.backupCodes} /> : null}

        {enabled && hasPassword ? (
          <Form method="post" className={styles.form}>
            <TextField name="password" type="password" label={tf.passwordLabel} autoComplete="current-password" required />
            <button type="submit" name="intent" value="regenerate" className={buttons.secondary} disabled={busy}>
              {tf.regenerate}
            </button>
            {required ? null : (
              <button type="submit" name="intent" value="disable" className={buttons.primary} disabled={busy}>
                {tf.disable}
              </button>
            )}
          </Form>
        ) : null}
      </section>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/**
 * The signed-in member's own second factor (not a site setting): every role, since ADMIN_2FA=required sends every
 * member here before anything else.
 */
export const handle = routeFacts({ cache: false, uploads: false, role: "reporter" });
