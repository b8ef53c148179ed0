import { isNewsroomMember } from "#app/.server/auth/permissions.server.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import { createEventStreamHub, type EventStreamHub, type EventStreamOptions } from "./event-streams.ts";

/**
 * The site's `/events` hub over its services: the event bus's events, and the newsroom's only to a member (a signed
 * session cookie, `hasSession`, then the member looked up once per stream through the auth service, as a request to
 * `/events` of the site's own origin would be).
 */
export function createSiteEventStreams(
  services: Pick<AppServices, "events" | "auth" | "config">,
  options: Pick<EventStreamOptions, "hasSession" | "limits" | "headers">,
): EventStreamHub {
  const siteOrigin = new URL(services.config.site.url).origin;
  return createEventStreamHub({
    ...options,
    subscribe: (listener) => services.events.subscribe(listener),
    isNewsroomMember: (req) =>
      isNewsroomMember(services.auth, new Request(`${siteOrigin}/events`, { headers: { cookie: req.headers.cookie ?? "" } })).catch(() => false),
  });
}
