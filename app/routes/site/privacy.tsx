import type { Route } from "./+types/privacy";
import { pageHeaders } from "../../lib/cache-headers.ts";
import { t } from "../../i18n/pt-BR.ts";
import { pageMeta, siteOf, titleWithSite } from "../../lib/seo.ts";
import { useRootData } from "../../lib/site-context.ts";
import styles from "./privacy.module.css";

export const headers = pageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  const name = site?.name ?? "";
  return pageMeta(site, { title: titleWithSite(t.privacy.title, site), description: t.privacy.metaDescription(name), path: "/userLicence" });
}

export default function Privacy() {
  const { site } = useRootData();
  const email = site.contactEmail;
  const contact = email ? (
    <a href={`mailto:${email}`}>{email}</a>
  ) : (
    <span className={styles.placeholder} data-testid="contact-placeholder">
      {t.privacy.contactPlaceholder}
    </span>
  );
  return (
    <article className={`page-narrow ${styles.policy}`}>
      <h1 className="page-title">{t.privacy.title}</h1>
      <p>
        Esta política explica como o <strong>{site.name}</strong> trata as informações de quem visita o site. Ao continuar navegando, você concorda
        com as práticas descritas abaixo.
      </p>

      <h2>Uso de cookies</h2>
      <p>
        Usamos cookies, pequenos arquivos guardados no seu navegador, para lembrar preferências, medir a audiência das páginas e exibir publicidade.
        Cookies essenciais mantêm o site funcionando; os demais podem ser recusados nas configurações do seu navegador.
      </p>

      <h2>Dados coletados</h2>
      <p>
        Coletamos automaticamente dados técnicos de navegação: endereço IP, tipo de navegador e de dispositivo, páginas visitadas, tempo de
        permanência e a página de origem. Não pedimos dados pessoais para a leitura das notícias.
      </p>

      <h2>Como usamos os dados</h2>
      <p>
        Os dados servem para manter o site seguro e no ar, entender quais conteúdos interessam mais aos leitores, melhorar a experiência de navegação
        e sustentar o jornalismo por meio de publicidade.
      </p>

      <h2>Compartilhamento com parceiros de publicidade</h2>
      <p>
        Podemos compartilhar dados agregados e anonimizados, que não identificam você, com parceiros de publicidade, para exibir anúncios relevantes e
        medir seus resultados. Não vendemos dados pessoais.
      </p>

      <h2>Como recusar (opt-out)</h2>
      <p>
        Você pode bloquear ou apagar cookies nas configurações do navegador, usar a navegação anônima ou desativar a publicidade personalizada nas
        configurações de anúncios da sua conta no Google e em outras plataformas. Algumas funções podem deixar de funcionar sem cookies.
      </p>

      <h2>Personalização de anúncios</h2>
      <p>
        Com o seu consentimento, parceiros podem usar cookies para mostrar anúncios de acordo com seus interesses. Sem ele, você continuará vendo
        anúncios, mas não personalizados.
      </p>

      <h2>Contato</h2>
      <p>Dúvidas sobre esta política ou sobre seus dados? Escreva para {contact}.</p>
    </article>
  );
}
