/**
 * The one e-mail address rule (app/lib/email-address.ts): a single plain `local@domain`, what the team invitation,
 * `admin create --email`, the sign-in forms and CONTACT_EMAIL take. Everything it accepts Zod's `z.email()` (Better
 * Auth's own check) accepts too.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { emailSchema } from "#app/lib/auth-schemas.ts";
import { isPlainEmailAddress, plainEmailAddress } from "#app/lib/email-address.ts";

const ACCEPTED = [
  "reporter@exemplo.com.br",
  "o'neil+futebol@redacao.example",
  "primeiro.segundo_terceiro-4@sub-dominio.exemplo.org",
  "a@b.co",
  `${"a".repeat(64)}@exemplo.com`,
];

const REFUSED = [
  "",
  "sem-arroba",
  "vitima:evil@evil.test;",
  "equipe: vitima@evil.test;",
  "Vítima <vitima@evil.test>",
  "<vitima@evil.test>",
  "vitima@evil.test,outro@evil.test",
  "vitima@evil.test;",
  "vitima@evil.test outro@evil.test",
  "vitima@evil.test\r\nBcc: outro@evil.test",
  '"vitima"@evil.test',
  "vitima(nota)@evil.test",
  "vitima@evil.test(nota)",
  "vitima@@evil.test",
  "vitima@evil@evil.test",
  "vitima@localhost",
  "vitima@[127.0.0.1]",
  "vitima@evil.123",
  "vitima@-evil.test",
  "vitima@evil-.test",
  "vitima@evil..test",
  ".vitima@evil.test",
  "vitima.@evil.test",
  "vi..tima@evil.test",
  "vitima'@evil.test",
  "vítima@evil.test",
  "vitima@evil.test.",
  `${"a".repeat(65)}@exemplo.com`,
  `a@${"b".repeat(250)}.com`,
];

describe("one plain e-mail address", () => {
  it("accepts a plain address, trimmed and lower-cased; Zod's z.email() accepts it too", () => {
    for (const address of ACCEPTED) {
      expect(plainEmailAddress(address), address).toBe(address.toLowerCase());
      expect(isPlainEmailAddress(address), address).toBe(true);
      expect(z.email().safeParse(address).success, address).toBe(true);
    }
    expect(plainEmailAddress("  Chefe@Redacao.Example ")).toBe("chefe@redacao.example");
    expect(isPlainEmailAddress("  chefe@redacao.example")).toBe(false);
  });

  it("refuses display names, groups, lists, quotes, comments, spaces, literals and overlong parts", () => {
    for (const address of REFUSED) {
      expect(plainEmailAddress(address), JSON.stringify(address)).toBeNull();
      expect(emailSchema.safeParse(address).success, JSON.stringify(address)).toBe(false);
    }
  });

  it("the sign-in forms' schema uses the same rule", () => {
    expect(emailSchema.parse("  Chefe@Redacao.Example ")).toBe("chefe@redacao.example");
    expect(emailSchema.safeParse("vitima:evil@evil.test;").success).toBe(false);
  });
});
