import { data } from "react-router";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";

/** Any URL no other route claims: a real 404, drawn by the root error boundary. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
