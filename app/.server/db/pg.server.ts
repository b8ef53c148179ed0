import { createRequire } from "node:module";
import type pg from "pg";

const require = createRequire(import.meta.url);
let loaded: typeof pg | undefined;

/** The PostgreSQL driver, loaded only by an installation that uses PostgreSQL (SQLite ones never pay for it). */
export function loadPg(): typeof pg {
  loaded ??= require("pg") as typeof pg;
  return loaded;
}
