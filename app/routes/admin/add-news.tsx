import type { Route } from "./+types/add-news";
import { getServices } from "../../.server/app.server.ts";
import { requireAdmin } from "../../.server/auth/guards.server.ts";
import { handleNewsFormAction } from "../../.server/http/news-form-action.server.ts";
import { driveStatusView } from "../../.server/storage/google-drive/status.server.ts";
import { EMPTY_NEWS_FORM, NewsForm, valuesFrom } from "../../components/admin/news-form.tsx";
import { t } from "../../i18n/pt-BR.ts";

export function meta() {
  return [{ title: t.newsForm.createTitle }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { config, store, news, drive: driveConnection } = getServices();
  const drive = await driveStatusView(driveConnection, request);
  return {
    categorySuggestions: await news.listCategories(),
    defaultAuthor: config.site.defaultAuthor,
    timeZone: config.timeZone,
    storeConnected: drive ? drive.connected : await store.isConnected(),
    storeLabel: t.storage.labels[store.name] ?? store.name,
    drive,
  };
}

export function action({ request }: Route.ActionArgs) {
  return handleNewsFormAction(request, null);
}

export default function AddNews({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <NewsForm
      // A new form after each no-JavaScript submission.
      key={actionData?.success ?? "form"}
      mode="create"
      // Fields refused without JavaScript come back as they were sent.
      initial={actionData?.values ? valuesFrom(actionData.values, EMPTY_NEWS_FORM) : EMPTY_NEWS_FORM}
      currentMedia={null}
      serverResult={actionData}
      {...loaderData}
    />
  );
}
