export { MAX_QUERY_LENGTH } from "./limits.ts";
