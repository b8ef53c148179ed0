import type { APIError } from "better-auth/api";

/**
 * Whether `error` is an error answer of Better Auth's API (wrong password, unverified address, invalid token…).
 * The same test as Better Auth's own `isAPIError` (both of its APIError classes are named "APIError"), without
 * loading Better Auth's modules to make it.
 */
export function isAPIError(error: unknown): error is APIError {
  return error instanceof Error && error.name === "APIError";
}
