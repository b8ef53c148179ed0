import { data, Form, href, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/sections";
import { NO_STORE, privatePageHeaders } from "#app/lib/cache-headers.ts";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { saveSectionArrangement } from "#app/.server/news/taxonomy/sections.server.ts";
import type { SectionSetting } from "#app/.server/news/taxonomy/section-settings.queries.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import panel from "#app/components/admin/panel.module.css";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import styles from "#app/components/admin/team.module.css";

/** The section menu's arrangement: admins only (the newsroom layout and this module check it on the server). */
export const handle = routeFacts({ cache: false, uploads: false, role: "admin" });

const ts = t.sections;
const MAX_POSITION = 999;

export function meta() {
  return noindexMeta(ts.pageTitle);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireRole(request, context, handle);
  // "Salvo" comes back in the address the save redirected to: the live reload that follows the save's own event
  // (app/lib/use-live-updates.ts) drops an action's answer, not the page's address.
  const saved = new URL(request.url).searchParams.get("salvo") === "1";
  return { sections: await servicesOf(context).news.listSectionsForAdmin(), saved };
}

interface ActionData {
  error?: string;
}

/**
 * One save of the whole table: for each category in use, `posicao:<slug>` (empty: by volume) and `mostrar:<slug>`
 * (a checkbox: absent means hidden). Slugs not in use are ignored.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const services = servicesOf(context);
  const form = await request.formData();
  const noStore = { "Cache-Control": NO_STORE };
  const settings: SectionSetting[] = [];
  for (const section of await services.news.listSectionsForAdmin()) {
    const raw = String(form.get(`posicao:${section.slug}`) ?? "").trim();
    const position = raw === "" ? null : /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (position !== null && !(position >= 1 && position <= MAX_POSITION)) {
      return data<ActionData>({ error: ts.invalidPosition(section.name) }, { status: 400, headers: noStore });
    }
    settings.push({ slug: section.slug, position, hidden: form.get(`mostrar:${section.slug}`) === null });
  }
  await saveSectionArrangement(services, viewer.userId, settings);
  throw redirect(`${href("/secoes")}?salvo=1`, { headers: noStore });
}

export const headers = privatePageHeaders;

export default function Sections({ loaderData, actionData }: Route.ComponentProps) {
  const { sections, saved } = loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <section className="page">
      <h1 className="page-title">{ts.pageTitle}</h1>
      <p className={styles.intro}>{ts.intro}</p>
      {saved && !actionData?.error ? <Banner kind="success" message={ts.saved} /> : null}
      {actionData?.error ? <Banner kind="error" message={actionData.error} /> : null}
      <section className={panel.panel} aria-label={ts.pageTitle}>
        {sections.length === 0 ? (
          <p>{ts.empty}</p>
        ) : (
          // Keyed by the saved arrangement, so the fields show what was saved after each save.
          <Form method="post" key={sections.map((s) => `${s.slug}:${s.position}:${s.hidden}`).join(",")}>
            <div className={styles.tableWrap}>
              <table className={styles.table} data-testid="section-settings">
                <thead>
                  <tr>
                    <th scope="col">{ts.colSection}</th>
                    <th scope="col">{ts.colCount}</th>
                    <th scope="col">{ts.colPosition}</th>
                    <th scope="col">{ts.colShown}</th>
                  </tr>
                </thead>
                <tbody>
                  {sections.map((section) => (
                    <tr key={section.slug} data-testid={`section-${section.slug}`}>
                      <th scope="row">{section.name}</th>
                      <td>{section.count}</td>
                      <td>
                        <input
                          type="number"
                          name={`posicao:${section.slug}`}
                          min={1}
                          max={MAX_POSITION}
                          inputMode="numeric"
                          placeholder={ts.byVolume}
                          defaultValue={section.position ?? ""}
                          aria-label={ts.positionLabel(section.name)}
                        />
                      </td>
                      <td>
                        <input
                          type="checkbox"
                          name={`mostrar:${section.slug}`}
                          defaultChecked={!section.hidden}
                          aria-label={ts.shownLabel(section.name)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <button type="submit" className={buttons.primary} disabled={busy}>
              {ts.save}
            </button>
          </Form>
        )}
      </section>
    </section>
  );
}
