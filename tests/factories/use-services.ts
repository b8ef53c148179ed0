import fs from "node:fs";
import { afterEach } from "vitest";
import { createTestServices, makeDataDir } from "./services.ts";

export type TestServices = Awaited<ReturnType<typeof createTestServices>>;
type ServiceOptions = Parameters<typeof createTestServices>[2];

async function closeAndRemove(services: TestServices): Promise<void> {
  await services.close().catch(() => undefined);
  fs.rmSync(services.dataDir, { recursive: true, force: true });
}

/**
 * For a Vitest file: a function that opens real services on a fresh data directory (and, on PostgreSQL, a fresh
 * database) with `defaults` plus the given environment and options; everything opened is closed and removed after
 * each test.
 */
export function useTestServices(prefix: string, defaults: Record<string, string> = {}) {
  const opened: TestServices[] = [];
  afterEach(async () => {
    for (const services of opened.splice(0)) await closeAndRemove(services);
  });
  return async (env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<TestServices> => {
    const services = await createTestServices(makeDataDir(prefix), { ...defaults, ...env }, options);
    opened.push(services);
    return services;
  };
}

/** For a Vitest file: a function that makes a fresh scratch directory; every one is removed after each test. */
export function useScratchDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = makeDataDir(prefix);
    dirs.push(dir);
    return dir;
  };
}
