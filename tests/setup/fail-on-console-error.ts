import { afterEach, beforeEach, vi } from "vitest";

// A stray console.error means something went wrong that the test did not assert on.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length) throw new Error(`console.error foi chamado:\n${errors.map((args) => args.join(" ")).join("\n")}`);
});
