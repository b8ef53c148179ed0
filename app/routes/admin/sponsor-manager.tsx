import { NewsroomPending } from "../../components/admin/newsroom-pending.tsx";
import { t } from "../../i18n/pt-BR.ts";

export default function SponsorManager() {
  return <NewsroomPending title={t.admin.sponsorsTitle} />;
}
