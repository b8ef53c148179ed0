import { describe, expect, it } from "vitest";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { fieldErrorsOf, registerSchema, resetSchema } from "#app/lib/auth-schemas.ts";
import { type PasswordPolicy, passwordProblems, passwordSchema } from "#app/lib/password-policy.ts";

const rules = t.auth.passwordRules;
const policyFromEnv = (env: Record<string, string> = {}): PasswordPolicy => parseConfig({ DATA_DIR: "/tmp/eef-policy", ...env }).auth.passwordPolicy;
const relaxed: PasswordPolicy = {
  minLength: 6,
  maxLength: 128,
  requireLowercase: false,
  requireUppercase: false,
  requireNumber: false,
  requireSymbol: false,
};

describe("política de senha: valores padrão", () => {
  it("o mínimo padrão é 6 e nenhuma classe de caractere é exigida", () => {
    const policy = policyFromEnv();
    expect(policy).toEqual(relaxed);
    expect(passwordProblems("12345", policy)).toEqual([rules.tooShort(6)]);
    expect(rules.tooShort(6)).toBe("A senha deve ter pelo menos 6 caracteres.");
    expect(passwordProblems("123456", policy)).toEqual([]);
    expect(passwordProblems("abcdef", policy)).toEqual([]);
    expect(passwordProblems("", policy)).toEqual([rules.tooShort(6)]);
  });

  it("lê cada regra do ambiente", () => {
    expect(
      policyFromEnv({
        PASSWORD_MIN_LENGTH: "8",
        PASSWORD_MAX_LENGTH: "20",
        PASSWORD_REQUIRE_LOWERCASE: "1",
        PASSWORD_REQUIRE_UPPERCASE: "true",
        PASSWORD_REQUIRE_NUMBER: "yes",
        PASSWORD_REQUIRE_SYMBOL: "on",
      }),
    ).toEqual({ minLength: 8, maxLength: 20, requireLowercase: true, requireUppercase: true, requireNumber: true, requireSymbol: true });
  });

  it("recusa um mínimo abaixo de 6 e um máximo menor que o mínimo", () => {
    expect(() => policyFromEnv({ PASSWORD_MIN_LENGTH: "5" })).toThrow(/PASSWORD_MIN_LENGTH: o mínimo aceito é 6/);
    expect(() => policyFromEnv({ PASSWORD_MIN_LENGTH: "12", PASSWORD_MAX_LENGTH: "10" })).toThrow(
      /PASSWORD_MAX_LENGTH: precisa ser maior ou igual a PASSWORD_MIN_LENGTH/,
    );
  });
});

describe("política de senha: cada regra tem a sua mensagem", () => {
  it("mínimo configurado", () => {
    const policy = { ...relaxed, minLength: 10 };
    expect(passwordProblems("123456789", policy)).toEqual(["A senha deve ter pelo menos 10 caracteres."]);
    expect(passwordProblems("1234567890", policy)).toEqual([]);
  });

  it("máximo", () => {
    const policy = { ...relaxed, maxLength: 12 };
    expect(passwordProblems("a".repeat(13), policy)).toEqual(["A senha deve ter no máximo 12 caracteres."]);
    expect(passwordProblems("a".repeat(12), policy)).toEqual([]);
  });

  it("letra minúscula", () => {
    const policy = { ...relaxed, requireLowercase: true };
    expect(passwordProblems("ABCDEF1!", policy)).toEqual(["A senha deve conter pelo menos uma letra minúscula."]);
    expect(passwordProblems("ABCDEf", policy)).toEqual([]);
    expect(passwordProblems("ÁÉÍÓÚç", policy)).toEqual([]); // accented letters count
  });

  it("letra maiúscula", () => {
    const policy = { ...relaxed, requireUppercase: true };
    expect(passwordProblems("abcdef1!", policy)).toEqual(["A senha deve conter pelo menos uma letra maiúscula."]);
    expect(passwordProblems("abcdeF", policy)).toEqual([]);
    expect(passwordProblems("ábcdeÇ", policy)).toEqual([]);
  });

  it("número", () => {
    const policy = { ...relaxed, requireNumber: true };
    expect(passwordProblems("abcdefgh", policy)).toEqual(["A senha deve conter pelo menos um número."]);
    expect(passwordProblems("abcdefg7", policy)).toEqual([]);
  });

  it("símbolo", () => {
    const policy = { ...relaxed, requireSymbol: true };
    expect(passwordProblems("abc def 123", policy)).toEqual(["A senha deve conter pelo menos um símbolo (por exemplo ! @ # $)."]);
    for (const symbol of ["!", "@", "#", "$", "%", "-", "_", ".", "€"]) {
      expect(passwordProblems(`abcdef${symbol}`, policy), symbol).toEqual([]);
    }
  });

  it("várias regras de uma vez: uma mensagem por regra, na ordem da política", () => {
    const strict: PasswordPolicy = {
      minLength: 8,
      maxLength: 10,
      requireLowercase: true,
      requireUppercase: true,
      requireNumber: true,
      requireSymbol: true,
    };
    expect(passwordProblems("abc", strict)).toEqual([rules.tooShort(8), rules.uppercase, rules.number, rules.symbol]);
    expect(passwordProblems("ABCDEFGHIJK", strict)).toEqual([rules.tooLong(10), rules.lowercase, rules.number, rules.symbol]);
    expect(passwordProblems("12345", strict)).toEqual([rules.tooShort(8), rules.lowercase, rules.uppercase, rules.symbol]);
    expect(passwordProblems("Abcdef1!", strict)).toEqual([]);
    const messages = passwordProblems("", strict);
    expect(messages).toHaveLength(5);
    expect(new Set(messages).size).toBe(5);
  });

  it("o schema zod (navegador e servidor) dá as mesmas mensagens", () => {
    const policy = { ...relaxed, requireUppercase: true, requireNumber: true };
    const result = passwordSchema(policy).safeParse("abc");
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.message)).toEqual([rules.tooShort(6), rules.uppercase, rules.number]);
    expect(passwordSchema(policy).safeParse("Abcdef1").success).toBe(true);
  });

  it("registro e redefinição aplicam a política e conferem a confirmação", () => {
    const policy = { ...relaxed, requireSymbol: true };
    const register = registerSchema(policy).safeParse({ email: "Nova@Teste.Example", password: "abcdef", confirmPassword: "abcdeg" });
    expect(register.success).toBe(false);
    // Both problems at once: the rule broken and the confirmation that differs.
    expect(fieldErrorsOf(register.error!)).toEqual({ password: [rules.symbol], confirmPassword: [t.auth.passwordsDiffer] });
    const mismatch = registerSchema(policy).safeParse({ email: "nova@teste.example", password: "abcde!", confirmPassword: "abcde?" });
    expect(fieldErrorsOf(mismatch.error!)).toEqual({ confirmPassword: [t.auth.passwordsDiffer] });
    const ok = registerSchema(policy).safeParse({ email: " Nova@Teste.Example ", password: "abcde!", confirmPassword: "abcde!" });
    expect(ok.data).toEqual({ email: "nova@teste.example", password: "abcde!", confirmPassword: "abcde!" });

    const reset = resetSchema({ ...policy, minLength: 8 }).safeParse({ token: "x", password: "abc", confirmPassword: "abc" });
    expect(fieldErrorsOf(reset.error!)).toEqual({ password: [rules.tooShort(8), rules.symbol] });
    expect(resetSchema(policy).safeParse({ token: "", password: "abcde!", confirmPassword: "abcde!" }).success).toBe(false);
  });
});
