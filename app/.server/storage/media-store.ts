import type { Readable } from "node:stream";
import type { RequestHandler } from "express";

/** A byte range, both ends inclusive, as in an HTTP `Range: bytes=start-end` header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  body: Readable;
  /** Size of the whole object in bytes (not of the range). */
  size: number;
}

/**
 * Where media files live. Keys are content-hashed paths such as `img/3f2a…/800.webp`; they are never reused,
 * so what a key serves never changes and can be cached forever.
 */
export interface MediaStore {
  /** Short name stored with each media record (`local`, `s3`, `gdrive`). */
  readonly name: string;
  /**
   * Whether an admin must connect the store (Google Drive's consent) before it can hold media. While such a store
   * is not connected, /readyz reports "not connected" without failing (the instance must stay reachable so an admin
   * can connect it) and the demo content waits; for any other store, not connected is a failure.
   */
  readonly needsConnection: boolean;
  /** Whether uploads can go through right now (local disk always can). */
  isConnected(): Promise<boolean>;
  /**
   * What the Content-Security-Policy must allow for this store besides the site itself: the origins browsers load
   * media from (`img-src`, `media-src`: a bucket's public URL) and the origins its forms lead to (`form-action`: the
   * consent page of a store an admin connects). Each entry is an origin (`https://host[:port]`), no path.
   */
  publicOrigins(): StoreOrigins;
  /**
   * Files the HTTP server can send itself (sendfile, Range, 304), mounted at `path` before the routes, which answer
   * what it passes on (`next()`). Only stores whose objects are plain files on this machine have it.
   */
  staticFiles?(): { path: string; handler: RequestHandler };
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** The object (or the requested range of it), or null when the key does not exist. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  /** Size in bytes, or null when the key does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Public URL a browser uses to fetch the object. */
  publicUrl(key: string): string;
  /**
   * Every object in the store whose key starts with `prefix` (all when omitted), in no particular order (for the
   * orphan sweeper, which lists only its own installation's objects). Only addressable keys are listed; the store's
   * own temporary files are not.
   */
  list(prefix?: string): AsyncIterable<StoredEntry>;
  /**
   * Removes the store's own temporary files (half-written objects of a crashed write) last modified before
   * `olderThan`, returning their paths (with `dryRun`: lists them, removes nothing). Stores that keep no temporary
   * files leave it out.
   */
  removeStaleTemp?(olderThan: Date, options?: { dryRun?: boolean }): Promise<string[]>;
}

/** See `MediaStore.publicOrigins`. */
export interface StoreOrigins {
  media: string[];
  forms: string[];
}

/** One object as listed by `MediaStore.list()`. */
export interface StoredEntry {
  key: string;
  size: number;
  modifiedAt: Date;
}

/** Whether `key` is one a store can address (the same rule as `assertValidKey`, without throwing). */
export function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

/** Refuses keys that could escape the store's root or that we would never have generated. */
export function assertValidKey(key: string): void {
  if (key.length > 200 || !KEY_PATTERN.test(key) || key.split("/").some((part) => part === ".." || part === ".")) {
    throw new Error(`invalid media key: ${JSON.stringify(key)}`);
  }
}
