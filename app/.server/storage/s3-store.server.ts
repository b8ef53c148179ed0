import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { S3Config } from "#app/.server/config/env.server.ts";
import { assertValidKey, type ByteRange, isValidKey, type MediaStore, type StoredEntry, type StoredObject } from "./media-store.ts";
import { s3PublicOrigins, s3PublicUrl } from "./s3-public.ts";
import { IMMUTABLE_CACHE } from "#app/lib/cache-headers.ts";
/** Bodies larger than one part go up as a multipart upload, at most `queueSize` parts in flight (16 MiB buffered). */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** How long `isConnected` waits for the bucket to answer before saying "not connected". */
const CONNECT_CHECK_TIMEOUT_MS = 5_000;
/** A successful bucket check is trusted this long (admin pages and /readyz ask on every request). */
const CONNECT_CHECK_TTL_MS = 10_000;
/** How long removing one object may take before it is given up (left to the orphan sweeper). */
const DELETE_TIMEOUT_MS = 10_000;

export type S3StoreOptions = S3Config & {
  /** A ready client (tests, or to share one); by default one is built from the options. */
  client?: S3Client;
  /** Clock for the `isConnected` cache (tests). */
  now?: () => number;
  /** Objects per ListObjectsV2 page (S3's maximum, 1000, by default; smaller in tests). */
  listPageSize?: number;
};

/** Builds the S3 client for an S3-compatible service (AWS S3, Cloudflare R2, MinIO, Garage…). */
export function createS3Client(config: S3Config): S3Client {
  const options: S3ClientConfig = {
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    // A dead endpoint fails fast instead of hanging a request; slow transfers are not cut short.
    requestHandler: { connectionTimeout: CONNECT_CHECK_TIMEOUT_MS },
  };
  if (config.endpoint) {
    options.endpoint = config.endpoint;
    // S3-compatible services other than AWS do not all understand the SDK's default integrity checksums
    // (CRC32 headers/trailers on every request); send them only where the API requires them.
    options.requestChecksumCalculation = "WHEN_REQUIRED";
    options.responseChecksumValidation = "WHEN_REQUIRED";
  }
  if (config.accessKeyId && config.secretAccessKey) {
    options.credentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey };
  }
  // Without explicit keys the SDK's default chain applies (environment, instance role, …).
  return new S3Client(options);
}

/**
 * Media in an S3-compatible bucket. Objects live under `${prefix}${key}`; uploads stream (multipart above 8 MiB)
 * and downloads stream with byte ranges. With a public base URL (a CDN in front of the bucket) browsers fetch
 * objects from there; without one, through our `/media/*` route, which reads them from here.
 *
 * Crashed multipart uploads leave parts that `list()` does not show: give the bucket a lifecycle rule
 * `AbortIncompleteMultipartUpload` (e.g. after 1 day) to reclaim them.
 */
export function createS3Store(options: S3StoreOptions): MediaStore {
  const client = options.client ?? createS3Client(options);
  const bucket = options.bucket;
  const prefix = options.prefix;
  const publicUrl = s3PublicUrl(options);
  const now = options.now ?? Date.now;
  let connectedUntil = 0;
  let checking: Promise<boolean> | null = null;

  /**
   * A request that failed for another reason than a missing object: the bucket may be gone, so the next
   * `isConnected` (e.g. /readyz) asks the bucket again at once instead of trusting its last answer for 10 s.
   */
  async function tracked<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (!isMissingObject(error)) connectedUntil = 0;
      throw error;
    }
  }

  function objectKey(key: string): string {
    assertValidKey(key);
    return `${prefix}${key}`;
  }

  async function checkBucket(): Promise<boolean> {
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }), {
        abortSignal: AbortSignal.timeout(CONNECT_CHECK_TIMEOUT_MS),
      });
      connectedUntil = now() + CONNECT_CHECK_TTL_MS;
      return true;
    } catch {
      connectedUntil = 0;
      return false;
    }
  }

  return {
    name: "s3",
    needsConnection: false,
    publicOrigins: () => s3PublicOrigins(options),
    isConnected() {
      if (now() < connectedUntil) return Promise.resolve(true);
      checking ??= checkBucket().finally(() => {
        checking = null;
      });
      return checking;
    },
    async put(key, body, contentType) {
      const Key = objectKey(key);
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key, Body: body, ContentType: contentType, CacheControl: IMMUTABLE_CACHE },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        // A failed multipart upload is aborted, so no parts are left behind.
        leavePartsOnError: false,
      });
      try {
        await tracked(() => upload.done());
      } catch (error) {
        if (!Buffer.isBuffer(body)) body.destroy();
        throw error;
      }
    },
    async get(key, range?: ByteRange): Promise<StoredObject | null> {
      const Key = objectKey(key);
      let response;
      try {
        response = await tracked(() =>
          client.send(new GetObjectCommand({ Bucket: bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined })),
        );
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
      const body = toNodeReadable(response.Body);
      const size = range ? totalFromContentRange(response.ContentRange) : response.ContentLength;
      if (size === undefined) {
        body.destroy();
        throw new Error(`S3 answer without a size for ${Key} (Content-Range: ${response.ContentRange ?? "missing"})`);
      }
      return { body, size };
    },
    async stat(key) {
      const Key = objectKey(key);
      try {
        const head = await tracked(() => client.send(new HeadObjectCommand({ Bucket: bucket, Key })));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      const Key = objectKey(key);
      try {
        // A bucket that takes the connection and never answers must not hold a removal (and what waits on it) forever.
        await tracked(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }), { abortSignal: AbortSignal.timeout(DELETE_TIMEOUT_MS) }));
      } catch (error) {
        if (!isMissingObject(error)) throw error;
      }
    },
    publicUrl,
    list(keyPrefix = "") {
      return listObjects(client, bucket, prefix, options.listPageSize, keyPrefix);
    },
  };
}

/** The objects under `${prefix}${keyPrefix}`, as keys without the store's own prefix. */
async function* listObjects(
  client: S3Client,
  bucket: string,
  prefix: string,
  pageSize: number | undefined,
  keyPrefix: string,
): AsyncGenerator<StoredEntry> {
  let token: string | undefined;
  const listed = prefix + keyPrefix;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: listed || undefined, ContinuationToken: token, MaxKeys: pageSize }),
    );
    for (const object of page.Contents ?? []) {
      if (!object.Key?.startsWith(listed)) continue;
      const key = object.Key.slice(prefix.length);
      if (!isValidKey(key)) continue;
      yield { key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

/** `bytes 0-9/12345` → 12345 (undefined when the total is missing or unknown, `*`). */
function totalFromContentRange(header: string | undefined): number | undefined {
  const match = header ? /\/(\d+)\s*$/.exec(header) : null;
  return match ? Number(match[1]) : undefined;
}

function toNodeReadable(body: unknown): Readable {
  if (body instanceof Readable) return body;
  if (body && typeof (body as { transformToWebStream?: unknown }).transformToWebStream === "function") {
    return Readable.fromWeb((body as { transformToWebStream(): NodeReadableStream<Uint8Array> }).transformToWebStream());
  }
  throw new Error("S3 answer without a body");
}

/** A 404 for the object (NoSuchKey, or HeadObject's bodiless NotFound); a missing bucket is not "missing object". */
function isMissingObject(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (name === "NoSuchKey" || name === "NotFound") return true;
  return $metadata?.httpStatusCode === 404 && name !== "NoSuchBucket";
}
