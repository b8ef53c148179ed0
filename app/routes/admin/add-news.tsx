import type { Route } from "./+types/add-news";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { handleNewsFormAction, newsFormLoaderData } from "#app/.server/http/news-form-action.server.ts";
import { EMPTY_NEWS_FORM, NewsForm, valuesFrom } from "#app/components/admin/news-form.tsx";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

export function meta() {
  return noindexMeta(t.newsForm.createTitle);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireRole(request, context, handle);
  // The user's id keys the browser's autosave of a new story (two members sharing a browser keep theirs apart).
  return { ...(await newsFormLoaderData(request, servicesOf(context), viewer.userId)), autosaveUser: viewer.userId, role: viewer.role };
}

export function action({ request, context }: Route.ActionArgs) {
  return handleNewsFormAction(request, context, null);
}

export default function AddNews({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <NewsForm
      // A new form after each no-JavaScript submission.
      key={actionData?.success ?? "form"}
      mode="create"
      // Fields refused without JavaScript come back as they were sent.
      // A reporter's new story is signed by them (they may pick another member or type a name).
      initial={valuesFrom(
        actionData?.values,
        loaderData.role === "reporter" ? { ...EMPTY_NEWS_FORM, author: loaderData.selfAuthor } : EMPTY_NEWS_FORM,
      )}
      currentMedia={null}
      serverResult={actionData}
      {...loaderData}
    />
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Reporters and up write stories (what they may publish is the story's rules: news-editor.service.server.ts). */
export const handle = routeFacts({ cache: false, uploads: true, role: "reporter" });
