/**
 * A reader whose connection drops (issue 36): following a link while offline says "Sem conexão" and how to go on,
 * never the generic "Algo deu errado"; once the connection is back, "Tentar de novo" opens the page.
 */
import { expect, openPage, t, test } from "./support/fixtures.ts";

test("sem conexão, um card de 'Leia também' leva a 'Sem conexão' com 'Tentar de novo', não a 'Algo deu errado'; de volta, abre a notícia", async ({
  standardSite,
  page,
  context,
}) => {
  await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
  const related = page.getByRole("region", { name: t.article.readAlso });
  const card = related.getByRole("link").first();
  const href = await card.getAttribute("href");
  expect(href).toMatch(/^\/article\//);
  const title = (await card.textContent())?.trim() ?? "";

  await context.setOffline(true);
  await card.click();
  const alert = page.getByRole("alert");
  await expect(alert.getByRole("heading", { name: t.errors.offlineTitle })).toBeVisible();
  await expect(alert).toContainText(t.errors.offlineText);
  await expect(page.getByText(t.errors.genericTitle)).toHaveCount(0);
  // No picture that could not be loaded either.
  await expect(alert.locator("img")).toHaveCount(0);
  const retry = alert.getByRole("link", { name: t.errors.retry });
  await expect(retry).toHaveAttribute("href", href!);

  await context.setOffline(false);
  await retry.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(title.slice(0, 20));
});
