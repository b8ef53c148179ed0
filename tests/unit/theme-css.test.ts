import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { THEME_SCRIPT } from "#app/lib/theme.ts";

const css = fs.readFileSync(path.resolve(import.meta.dirname, "../../app/styles/global.css"), "utf8");

/** The declarations of the first rule whose selector is `selector`, in order, as `name: value`. */
function declarations(selector: string): string[] {
  const start = css.indexOf(`${selector} {`);
  expect(start, `regra ${selector}`).toBeGreaterThan(-1);
  const body = css.slice(start + selector.length + 2, css.indexOf("}", start));
  return body
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split(";")
    .map((declaration) => declaration.trim().replace(/\s+/g, " "))
    .filter(Boolean);
}

const names = (list: string[]) => list.map((declaration) => declaration.slice(0, declaration.indexOf(":")));

describe("the dark theme's colors (app/styles/global.css)", () => {
  const chosen = declarations(':root[data-theme="dark"]:not([data-area="redacao"])');
  const preferred = declarations(':root:not([data-theme="light"]):not([data-area="redacao"])');

  it("are the same whether the reader chose them or the device prefers them", () => {
    expect(chosen.length).toBeGreaterThan(10);
    expect(preferred).toEqual(chosen);
  });

  it("only change what the light theme defines (no property exists in the dark theme alone)", () => {
    const light = names(declarations(":root"));
    expect(names(chosen).filter((name) => !light.includes(name))).toEqual([]);
    expect(chosen).toContain("color-scheme: dark");
  });
});

describe("the theme's script in <head>", () => {
  function run(stored: string | null | Error) {
    const dataset: Record<string, string> = {};
    const localStorage = {
      getItem() {
        if (stored instanceof Error) throw stored;
        return stored;
      },
    };
    new Function("localStorage", "document", THEME_SCRIPT)(localStorage, { documentElement: { dataset } });
    return dataset.theme;
  }

  it("sets the stored choice on <html>", () => {
    expect(run("dark")).toBe("dark");
    expect(run("light")).toBe("light");
  });

  it("leaves the device's preference in force otherwise, and never throws (storage turned off)", () => {
    expect(run(null)).toBeUndefined();
    expect(run("roxo")).toBeUndefined();
    expect(run(new Error("SecurityError"))).toBeUndefined();
  });

  it("cannot end the <script> element it is written into", () => {
    expect(THEME_SCRIPT).not.toMatch(/<\/script|<!--/i);
  });
});
