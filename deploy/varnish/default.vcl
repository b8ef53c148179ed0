vcl 4.1;
# Varnish in front of Esporte em Foco (README, "Deployment"; docs/decisions/010-cdn-purge.md).
#
# - Caches what the app marks public (Cache-Control / CDN-Cache-Control): anonymous pages, feeds, sitemaps, media.
# - Passes anything with the session cookie, the API, the event stream and the newsroom.
# - Purges come only from the app: `PURGE` with `Surrogate-Key: k1 k2 …` bans every stored answer that carries one of
#   those keys (the app sends a key per page path, per kind of page and one for the whole site). Only from an address
#   of the `purgers` acl and never through a proxy (nginx in front connects from 127.0.0.1 too, but it adds
#   X-Forwarded-For): 403 otherwise. Only keys of the app's alphabet (letters, digits and / . _ ~ % -, as in
#   app/.server/cdn/surrogate-keys.ts), matched whole and literally (dots escaped here): anything else is a 400 and
#   bans nothing. Bans test only obj.* (the ban lurker can clear them in the background).
#
# `varnishd -a :80 -f /etc/varnish/default.vcl -s malloc,256m`; change the backend and the acl if the app is elsewhere.

import std;

backend app {
  .host = "127.0.0.1";
  .port = "3000";
  .connect_timeout = 2s;
  .first_byte_timeout = 30s;
  .between_bytes_timeout = 30s;
}

acl purgers {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  if (req.method == "PURGE") {
    # Varnish itself appends the client's address to X-Forwarded-For before this runs: a comma means a hop before
    # it (nginx, a load balancer) named one already. Via and Forwarded are other proxies' marks.
    if (client.ip !~ purgers || req.http.X-Forwarded-For ~ "," || req.http.Via || req.http.Forwarded) {
      return (synth(403, "Forbidden"));
    }
    if (req.http.Surrogate-Key !~ "^ *[A-Za-z0-9/._~%-]+( +[A-Za-z0-9/._~%-]+)* *$") {
      return (synth(400, "Surrogate-Key: keys of letters, digits and / . _ ~ % - separated by spaces"));
    }
    # Each key is a literal: its dots escaped, whole between spaces (or the ends) of the stored answer's keys.
    if (std.ban("obj.http.Surrogate-Key ~ (^|\s)(" + regsuball(regsuball(regsub(req.http.Surrogate-Key, "^ +| +$", ""), "\.", "\\."), " +", "|") + ")(\s|$)")) {
      return (synth(200, "Banned"));
    }
    return (synth(400, std.ban_error()));
  }
  # BAN is not this site's method (PURGE is), whoever sends it.
  if (req.method == "BAN") {
    return (synth(405, "Method Not Allowed"));
  }
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  # Live updates: a long-lived text/event-stream, never stored.
  if (req.url ~ "^/events") {
    return (pass);
  }
  # A live story's updates (JSON, s-maxage=2, purged with the story by the app): what every open page of the story
  # fetches after each update, so a goal's thousands of open pages cost the app one request. A member's passes below
  # (their answer is private, and carries drafts' updates).
  if (req.url ~ "^/api/news/[^/?]+/updates(\?|$)" && req.http.Cookie !~ "(^|;\s*)(__Secure-)?eef\.session_token=") {
    unset req.http.Cookie;
    return (hash);
  }
  if (req.url ~ "^/api/" || req.url ~ "^/(admin|add-news|edit-news|redacao|equipe|perfil|SponsorManager)(/|\?|\.data|$)") {
    return (pass);
  }
  # A signed-in member: every answer is theirs.
  if (req.http.Cookie ~ "(^|;\s*)(__Secure-)?eef\.session_token=") {
    return (pass);
  }
  # Anything else is the same for every reader: other cookies (a consent choice) do not change the answer.
  unset req.http.Cookie;
  return (hash);
}

sub vcl_backend_fetch {
  if (bereq.url ~ "^/events") {
    set bereq.first_byte_timeout = 60s;
    set bereq.between_bytes_timeout = 3600s;
  }
}

sub vcl_backend_response {
  if (bereq.url ~ "^/events") {
    set beresp.do_stream = true;
    set beresp.uncacheable = true;
    return (deliver);
  }
  # The app's CDN-Cache-Control (RFC 9213) says how long a shared cache keeps a page and serves it stale while it
  # refreshes; browsers never see it. Without it, Cache-Control's s-maxage applies (Varnish's default).
  if (beresp.http.CDN-Cache-Control ~ "max-age=\d+") {
    set beresp.ttl = std.duration(regsub(beresp.http.CDN-Cache-Control, ".*max-age=(\d+).*", "\1") + "s", 0s);
    if (beresp.http.CDN-Cache-Control ~ "stale-while-revalidate=\d+") {
      set beresp.grace = std.duration(regsub(beresp.http.CDN-Cache-Control, ".*stale-while-revalidate=(\d+).*", "\1") + "s", 0s);
    }
  }
  if (beresp.http.Cache-Control ~ "(private|no-store)" || beresp.http.Set-Cookie) {
    set beresp.uncacheable = true;
    set beresp.ttl = 120s;
    return (deliver);
  }
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
  unset resp.http.Surrogate-Key;
  unset resp.http.CDN-Cache-Control;
  unset resp.http.Via;
  unset resp.http.X-Varnish;
}
