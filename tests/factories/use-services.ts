import fs from "node:fs";
import { afterEach } from "vitest";
import { createTestServices, makeDataDir } from "./services.ts";

export type TestServices = Awaited<ReturnType<typeof createTestServices>>;

/**
 * For a Vitest file: a function that opens real services on a fresh data directory (and, on PostgreSQL, a fresh
 * database) with `defaults` plus the given environment; everything opened is closed and removed after each test.
 */
export function useTestServices(prefix: string, defaults: Record<string, string> = {}) {
  const opened: TestServices[] = [];
  afterEach(async () => {
    for (const services of opened.splice(0)) {
      await services.close().catch(() => undefined);
      fs.rmSync(services.dataDir, { recursive: true, force: true });
    }
  });
  return async (env: Record<string, string> = {}): Promise<TestServices> => {
    const services = await createTestServices(makeDataDir(prefix), { ...defaults, ...env });
    opened.push(services);
    return services;
  };
}
