import { NewsroomPending } from "../../components/admin/newsroom-pending.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { t } from "../../i18n/pt-BR.ts";

export default function EditNews() {
  return <NewsroomPending title={t.admin.editNews} />;
}

export function ErrorBoundary() {
  return <ErrorState title={t.admin.editPageError} actionLabel={t.errors.backHome} />;
}
