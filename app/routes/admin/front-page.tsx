import { data, Form, href, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/front-page";
import { NO_STORE, privatePageHeaders } from "#app/lib/cache-headers.ts";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { AppError, publicErrorMessage, requestIdFrom } from "#app/.server/errors.ts";
import { frontPageChoices, isFrontPagePosition, pickForFrontPage, releaseFrontPage } from "#app/.server/news/desk/front-page.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import panel from "#app/components/admin/panel.module.css";
import buttons from "#app/components/ui/button.module.css";
import { formatDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import { DEFAULT_FRONT_PAGE_HOLD, FRONT_PAGE_HOLDS, type FrontPageHold } from "#app/lib/front-page.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import styles from "#app/components/admin/team.module.css";

/** The top of the home: editors and admins (the newsroom layout and this module check it on the server). */
export const handle = routeFacts({ cache: false, uploads: false, role: "editor" });

const tf = t.frontPage;
const positionName = (position: number) => tf.positions[position - 1] ?? String(position);

export function meta() {
  return noindexMeta(tf.pageTitle);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireRole(request, context, handle);
  const services = servicesOf(context);
  const [choices, home] = await Promise.all([frontPageChoices(services.database.db), services.news.getHome()]);
  const timeZone = services.config.timeZone;
  // What the last change did, from the address it redirected to (a live reload keeps the address, not an answer).
  const params = new URL(request.url).searchParams;
  const position = Number(params.get("posicao"));
  const done =
    isFrontPagePosition(position) && params.get("feito") === "fixada"
      ? tf.picked(positionName(position))
      : isFrontPagePosition(position) && params.get("feito") === "liberada"
        ? tf.released(positionName(position))
        : null;
  return {
    done,
    // What readers see on top now, and whether an editor placed it there (and until when).
    top: home.recent.map((story, index) => {
      const pick = choices.picks.find((each) => each.position === index + 1 && each.newsId === story.id);
      return {
        position: index + 1,
        title: story.title,
        state: !pick ? tf.automatic : pick.until ? tf.until(formatDateTime(pick.until, timeZone)) : tf.untilChanged,
        picked: Boolean(pick),
      };
    }),
    candidates: choices.candidates,
  };
}

interface ActionData {
  error?: string;
}

/** `intent=pick` (news, position, hold) places a story; `intent=release` (position) gives the place back. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const services = servicesOf(context);
  const form = await request.formData();
  const noStore = { "Cache-Control": NO_STORE };
  const position = Number(form.get("position"));
  try {
    if (form.get("intent") === "release") {
      await releaseFrontPage({ db: services.database.db, events: services.events, log: services.log }, position, viewer.userId);
      throw redirect(`${href("/capa")}?feito=liberada&posicao=${position}`, { headers: noStore });
    }
    await pickForFrontPage(
      { db: services.database.db, events: services.events, log: services.log },
      { newsId: String(form.get("news") ?? ""), position, hold: String(form.get("hold") ?? "") },
      viewer.userId,
    );
    throw redirect(`${href("/capa")}?feito=fixada&posicao=${position}`, { headers: noStore });
  } catch (error) {
    if (error instanceof Response) throw error;
    const status = error instanceof AppError ? error.status : 500;
    if (status >= 500) services.log.error({ err: error, reqId: requestIdFrom(request) }, "front page change failed");
    return data<ActionData>({ error: publicErrorMessage(error, requestIdFrom(request)) }, { status, headers: noStore });
  }
}

export const headers = privatePageHeaders;

export default function FrontPage({ loaderData, actionData }: Route.ComponentProps) {
  const { top, candidates, done } = loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <section className="page">
      <h1 className="page-title">{tf.pageTitle}</h1>
      <p className={styles.intro}>{tf.intro}</p>
      {done && !actionData?.error ? <Banner kind="success" message={done} /> : null}
      {actionData?.error ? <Banner kind="error" message={actionData.error} /> : null}

      <section className={panel.panel} aria-labelledby="capa-agora">
        <h2 id="capa-agora">{tf.nowTitle}</h2>
        <ol className={styles.invites} data-testid="front-page-now">
          {top.map((slot) => (
            <li key={slot.position} data-testid={`front-page-${slot.position}`}>
              <strong>{positionName(slot.position)}:</strong> <span>{slot.title}</span> <span className={styles.email}>({slot.state})</span>
              {slot.picked ? (
                <Form method="post" className={styles.inline}>
                  <input type="hidden" name="intent" value="release" />
                  <input type="hidden" name="position" value={slot.position} />
                  <button type="submit" className={buttons.secondary} disabled={busy} aria-label={tf.releaseLabel(positionName(slot.position))}>
                    {tf.release}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ol>
      </section>

      <section className={panel.panel} aria-labelledby="capa-fixar">
        <h2 id="capa-fixar">{tf.pickTitle}</h2>
        {candidates.length === 0 ? (
          <p>{tf.noStories}</p>
        ) : (
          <Form method="post" className={styles.inviteForm}>
            <input type="hidden" name="intent" value="pick" />
            <label className={styles.field}>
              {tf.story}
              <select name="news" className={styles.control} required>
                {candidates.map((story) => (
                  <option key={story.id} value={story.id}>
                    {story.live ? `${story.title} (${tf.live})` : story.title}
                  </option>
                ))}
              </select>
            </label>
            <label className={styles.field}>
              {tf.position}
              <select name="position" className={styles.control} defaultValue="1">
                {tf.positions.map((name, index) => (
                  <option key={name} value={index + 1}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label className={styles.field}>
              {tf.hold}
              <select name="hold" className={styles.control} defaultValue={DEFAULT_FRONT_PAGE_HOLD}>
                {(Object.keys(FRONT_PAGE_HOLDS) as FrontPageHold[]).map((hold) => (
                  <option key={hold} value={hold}>
                    {tf.holds[hold]}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className={buttons.primary} disabled={busy}>
              {tf.pick}
            </button>
          </Form>
        )}
      </section>
    </section>
  );
}
