import { href } from "react-router";
import type { S3Config } from "#app/.server/config/env.server.ts";
import { assertValidKey, type StoreOrigins } from "./media-store.ts";

/**
 * Where browsers fetch an S3 object: from S3_PUBLIC_URL (a CDN or the bucket's public address) when set, else
 * through the site's `/media/*` route. Computed from the configuration alone, without the AWS SDK, so reader pages
 * never load it (the lazy store in create-store.server.ts and the S3 store both use this).
 */
export function s3PublicUrl(config: Pick<S3Config, "publicUrl" | "prefix">): (key: string) => string {
  const publicBase = config.publicUrl?.replace(/\/+$/, "") ?? null;
  return (key) => {
    assertValidKey(key);
    return publicBase ? `${publicBase}/${config.prefix}${key}` : href("/media/*", { "*": key });
  };
}

/** The bucket's public origin (S3_PUBLIC_URL), when media are loaded from there. */
export function s3PublicOrigins(config: Pick<S3Config, "publicUrl">): StoreOrigins {
  return { media: config.publicUrl ? [new URL(config.publicUrl).origin] : [], forms: [] };
}
