/**
 * A contract server for the Google Drive store: node:http on 127.0.0.1, speaking the documented wire formats of
 * Google's OAuth 2 endpoints and of Drive v3, with switches that force failures. Tests (and the browser tests'
 * site) point the GOOGLE_DRIVE_* URLs at it, so the real store code runs end to end over HTTP.
 *
 * OAuth 2 (https://developers.google.com/identity/protocols/oauth2/web-server):
 * - GET  /o/oauth2/v2/auth            consent (a page with "Permitir"/"Cancelar", or automatic), then a redirect to
 *                                     redirect_uri with `code` and `state` (or `error=access_denied`)
 * - POST /token                       grant_type=authorization_code | refresh_token (form-encoded); answers
 *                                     {access_token, expires_in, refresh_token?, scope, token_type} or
 *                                     {error: "invalid_grant" | "invalid_client" | …, error_description}
 * - POST /revoke                      token=… (query or form); 200 or 400 {error: "invalid_token"}
 * Drive v3 (https://developers.google.com/drive/api/reference/rest/v3):
 * - POST   /upload/drive/v3/files?uploadType=multipart   multipart/related: JSON metadata part, then the media part
 * - POST   /upload/drive/v3/files?uploadType=resumable   JSON metadata → 200 with the session URI in Location
 * - PUT    <session URI>                                 chunks with Content-Range (multiples of 256 KiB but the
 *                                                        last); 308 + Range while incomplete, 200 + file at the end
 * - GET    /drive/v3/files/{id}?alt=media                content, with Range → 206 + Content-Range
 * - GET    /drive/v3/files/{id}                          metadata (honours `fields`)
 * - DELETE /drive/v3/files/{id}                          204
 * - POST   /drive/v3/files/{id}/permissions              {role, type} → the permission
 * Errors: {"error": {"code", "message", "errors": [{"domain", "reason", "message", …}], "status"}}.
 * With the drive.file scope, a client sees only the files it created (others answer 404, as on Drive).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { GoogleDriveConfig } from "#app/.server/config/env.server.ts";

export const DRIVE_FILE_SCOPE = "https://www.googleapis.com/auth/drive.file";
/** Documented limit of a multipart upload; larger files must use a resumable upload. */
export const MULTIPART_LIMIT = 5 * 1024 * 1024;
/** Resumable chunks (except the last) must be multiples of this. */
export const CHUNK_GRANULARITY = 256 * 1024;

export type DriveOperation =
  | "authorize"
  | "exchange"
  | "refresh"
  | "revoke"
  | "upload"
  | "chunk"
  | "permissions"
  | "download"
  | "metadata"
  | "delete"
  | "unknown";

export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  appProperties: Record<string, string>;
  data: Buffer;
  permissions: Array<{ id: string; type: string; role: string }>;
  createdTime: Date;
  /** The OAuth client that created it (drive.file: only that client sees it). */
  clientId: string;
  uploadType: "multipart" | "resumable";
}

export interface ForcedFailure {
  status: number;
  /** Drive `errors[0].reason`, or the OAuth `error` code for token/revoke operations. */
  reason?: string;
  message?: string;
  /** How many requests in a row fail (default 1). */
  times?: number;
}

export interface RecordedRequest {
  operation: DriveOperation;
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  contentType: string | null;
  status: number;
  /** Parsed JSON body (permissions, metadata of an upload, token form fields without secrets). */
  body?: unknown;
}

export interface DriveContractServerOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued access tokens, in seconds; null leaves it out of the answer. Default 3599. */
  expiresIn?: number | null;
  /** How consent is given: a page with buttons (default), automatically, or refused. */
  consent?: "page" | "auto" | "deny";
  /** The folder uploads go into (exists on this fake Drive). */
  folderId?: string;
}

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  scope: string;
  offline: boolean;
  expiresAt: number;
  used: boolean;
}

interface TokenRecord {
  clientId: string;
  scope: string;
  revoked: boolean;
}

interface AccessRecord extends TokenRecord {
  expiresAt: number;
  refreshToken: string | null;
}

interface UploadSession {
  clientId: string;
  metadata: Record<string, unknown>;
  contentType: string;
  chunks: Buffer[];
  received: number;
  file: FakeDriveFile | null;
}

export interface DriveContractServer {
  url: string;
  clientId: string;
  clientSecret: string;
  folderId: string;
  files: Map<string, FakeDriveFile>;
  requests: RecordedRequest[];
  /** `expires_in` for tokens issued from now on (null: left out). */
  expiresIn: number | null;
  consent: "page" | "auto" | "deny";
  /** The environment a site needs to use this server (MEDIA_STORE=gdrive and every GOOGLE_DRIVE_* URL). */
  env(): Record<string, string>;
  /** The store configuration pointing here, for a site at `siteUrl`. */
  config(siteUrl?: string): GoogleDriveConfig;
  /** A refresh token for this client, as if an admin had consented (scope drive.file by default). */
  issueRefreshToken(scope?: string): string;
  /** The user removed the app's access: every refresh and access token stops working. */
  revokeAll(): void;
  /** Every access token issued so far expires now (refresh tokens keep working). */
  expireAccessTokens(): void;
  /** The next `times` requests of `operation` fail with this status (Drive- or OAuth-style error body). */
  failNext(operation: DriveOperation, failure: ForcedFailure): void;
  /** Requests recorded for `operation`. */
  calls(operation: DriveOperation): RecordedRequest[];
  /** Whether `token` is a refresh token this server issued and has not revoked. */
  isRefreshTokenActive(token: string): boolean;
  stop(): Promise<void>;
}

const id = (bytes = 16) => randomBytes(bytes).toString("base64url");

export async function startDriveContractServer(options: DriveContractServerOptions = {}): Promise<DriveContractServer> {
  const clientId = options.clientId ?? "cliente-drive.apps.googleusercontent.test";
  const clientSecret = options.clientSecret ?? "segredo-do-cliente-drive";
  const folderId = options.folderId ?? "pasta-da-redacao";
  const codes = new Map<string, CodeRecord>();
  const refreshTokens = new Map<string, TokenRecord>();
  const accessTokens = new Map<string, AccessRecord>();
  const sessions = new Map<string, UploadSession>();
  const failures = new Map<DriveOperation, ForcedFailure[]>();
  const folders = new Set([folderId]);
  const files = new Map<string, FakeDriveFile>();
  const requests: RecordedRequest[] = [];
  let url = "";

  const state = {
    expiresIn: options.expiresIn === undefined ? 3599 : options.expiresIn,
    consent: options.consent ?? ("page" as "page" | "auto" | "deny"),
  };

  function issueAccessToken(client: string, scope: string, refreshToken: string | null) {
    const token = `ya29.${id(24)}`;
    const lifetime = state.expiresIn ?? 3600;
    accessTokens.set(token, { clientId: client, scope, revoked: false, refreshToken, expiresAt: Date.now() + lifetime * 1000 });
    return {
      access_token: token,
      ...(state.expiresIn === null ? {} : { expires_in: state.expiresIn }),
      scope,
      token_type: "Bearer",
    };
  }

  function takeFailure(operation: DriveOperation): ForcedFailure | null {
    const queue = failures.get(operation);
    const head = queue?.[0];
    if (!head) return null;
    head.times = (head.times ?? 1) - 1;
    if (head.times <= 0) queue.shift();
    return head;
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendDriveError(res, 500, "backendError", `contract server: ${(error as Error).message}`);
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const requestUrl = new URL(req.url ?? "/", url);
    const query = Object.fromEntries(requestUrl.searchParams);
    const method = req.method ?? "GET";
    const path = requestUrl.pathname;
    const record: RecordedRequest = {
      operation: "unknown",
      method,
      path,
      query,
      authorization: req.headers.authorization ?? null,
      contentType: req.headers["content-type"] ?? null,
      status: 0,
    };
    requests.push(record);
    res.on("finish", () => {
      record.status = res.statusCode;
    });
    const body = await readBody(req);

    // ---------------------------------------------------------------------------------------------- OAuth 2
    if (path === "/o/oauth2/v2/auth" && method === "GET") {
      record.operation = "authorize";
      return authorize(query, res);
    }
    if (path === "/o/oauth2/v2/auth/consent" && method === "POST") {
      record.operation = "authorize";
      const form = Object.fromEntries(new URLSearchParams(body.toString("utf8")));
      return finishConsent(form, form.decision === "allow", res);
    }
    if (path === "/token" && method === "POST") {
      const form = Object.fromEntries(new URLSearchParams(body.toString("utf8")));
      record.operation = form.grant_type === "refresh_token" ? "refresh" : "exchange";
      record.body = { grant_type: form.grant_type, client_id: form.client_id };
      return token(record.operation, form, req, res);
    }
    if (path === "/revoke" && method === "POST") {
      record.operation = "revoke";
      const form = Object.fromEntries(new URLSearchParams(body.toString("utf8")));
      const forced = takeFailure("revoke");
      if (forced) return sendOAuthError(res, forced.status, forced.reason ?? "internal_failure", forced.message ?? "Forced failure");
      return revoke(query.token ?? form.token ?? "", res);
    }

    // ---------------------------------------------------------------------------------------------- Drive v3
    const session = path === "/upload/drive/v3/files" && method === "PUT" && query.upload_id ? sessions.get(query.upload_id) : undefined;
    if (path === "/upload/drive/v3/files" && method === "PUT") {
      record.operation = "chunk";
      if (!session) return sendDriveError(res, 404, "notFound", "Upload session not found or expired.");
      const forced = takeFailure("chunk");
      if (forced) return sendForcedDrive(res, forced);
      return uploadChunk(session, req, body, res);
    }

    const fileMatch = /^\/drive\/v3\/files\/([^/]+)(\/permissions)?$/.exec(path);
    const operation: DriveOperation =
      path === "/upload/drive/v3/files" && method === "POST"
        ? "upload"
        : fileMatch?.[2] && method === "POST"
          ? "permissions"
          : fileMatch && method === "GET"
            ? query.alt === "media"
              ? "download"
              : "metadata"
            : fileMatch && method === "DELETE"
              ? "delete"
              : "unknown";
    record.operation = operation;
    if (operation === "unknown") return sendDriveError(res, 404, "notFound", `Not Found: ${method} ${path}`);

    const access = authenticate(req);
    if (!access) {
      return sendJson(res, 401, {
        error: {
          code: 401,
          message:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
          errors: [{ message: "Invalid Credentials", domain: "global", reason: "authError", location: "Authorization", locationType: "header" }],
          status: "UNAUTHENTICATED",
        },
      });
    }
    if (!access.scope.split(/\s+/).includes(DRIVE_FILE_SCOPE)) {
      return sendDriveError(res, 403, "insufficientPermissions", "Insufficient Permission: Request had insufficient authentication scopes.");
    }
    const forced = takeFailure(operation);
    if (forced) return sendForcedDrive(res, forced);

    if (operation === "upload") {
      if (query.uploadType === "multipart") return uploadMultipart(access.clientId, req, body, record, res);
      if (query.uploadType === "resumable") return startResumable(access.clientId, req, body, record, res);
      return sendDriveError(res, 400, "invalid", `Invalid value for uploadType: ${query.uploadType ?? "(none)"}`);
    }
    const fileId = decodeURIComponent(fileMatch![1]!);
    const file = files.get(fileId);
    if (!file || file.clientId !== access.clientId) {
      return sendJson(res, 404, {
        error: {
          code: 404,
          message: `File not found: ${fileId}.`,
          errors: [{ message: `File not found: ${fileId}.`, domain: "global", reason: "notFound", location: "fileId", locationType: "parameter" }],
        },
      });
    }
    if (operation === "permissions") {
      let permission: { role?: unknown; type?: unknown };
      try {
        permission = JSON.parse(body.toString("utf8")) as { role?: unknown; type?: unknown };
      } catch {
        return sendDriveError(res, 400, "parseError", "Parse Error");
      }
      record.body = permission;
      const roles = ["owner", "organizer", "fileOrganizer", "writer", "commenter", "reader"];
      const types = ["user", "group", "domain", "anyone"];
      if (typeof permission.role !== "string" || !roles.includes(permission.role)) {
        return sendDriveError(res, 400, "invalid", "The permission role field is required and must be valid.");
      }
      if (typeof permission.type !== "string" || !types.includes(permission.type)) {
        return sendDriveError(res, 400, "invalid", "The permission type field is required and must be valid.");
      }
      const created = { id: permission.type === "anyone" ? "anyoneWithLink" : id(8), type: permission.type, role: permission.role };
      file.permissions.push(created);
      return sendJson(res, 200, { kind: "drive#permission", ...created, allowFileDiscovery: false });
    }
    if (operation === "delete") {
      files.delete(fileId);
      res.writeHead(204).end();
      return;
    }
    if (operation === "metadata") return sendJson(res, 200, fileResource(file, query.fields));
    return download(file, req, res);
  }

  function authorize(query: Record<string, string>, res: http.ServerResponse) {
    if (query.client_id !== clientId) return sendHtml(res, 401, "<h1>Erro 401: invalid_client</h1><p>The OAuth client was not found.</p>");
    if (!query.redirect_uri || !/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(query.redirect_uri)) {
      return sendHtml(res, 400, "<h1>Erro 400: redirect_uri_mismatch</h1>");
    }
    if (query.response_type !== "code" || !query.scope) return sendHtml(res, 400, "<h1>Erro 400: invalid_request</h1>");
    if (state.consent === "auto") return finishConsent(query, true, res);
    if (state.consent === "deny") return finishConsent(query, false, res);
    const hidden = Object.entries(query)
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join("");
    return sendHtml(
      res,
      200,
      `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Fazer login com o Google</title></head><body>
<h1>O app quer acessar sua Conta do Google</h1>
<p>Ver, editar, criar e excluir apenas os arquivos do Google Drive que você usa com este app (${escapeHtml(query.scope)}).</p>
<form method="post" action="/o/oauth2/v2/auth/consent">${hidden}
<button type="submit" name="decision" value="deny">Cancelar</button>
<button type="submit" name="decision" value="allow">Permitir</button>
</form></body></html>`,
    );
  }

  function finishConsent(query: Record<string, string>, allowed: boolean, res: http.ServerResponse) {
    const target = new URL(query.redirect_uri ?? "");
    if (query.state !== undefined) target.searchParams.set("state", query.state);
    if (!allowed) {
      target.searchParams.set("error", "access_denied");
    } else {
      const code = `4/${id(24)}`;
      codes.set(code, {
        clientId: query.client_id ?? "",
        redirectUri: query.redirect_uri ?? "",
        scope: query.scope ?? "",
        offline: query.access_type === "offline",
        expiresAt: Date.now() + 10 * 60_000,
        used: false,
      });
      target.searchParams.set("code", code);
      target.searchParams.set("scope", query.scope ?? "");
    }
    res.writeHead(302, { Location: target.href }).end();
  }

  function clientOf(form: Record<string, string>, req: http.IncomingMessage): { id: string; secret: string } {
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? "");
    if (basic) {
      const [user, pass] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":");
      return { id: decodeURIComponent(user ?? ""), secret: decodeURIComponent(pass ?? "") };
    }
    return { id: form.client_id ?? "", secret: form.client_secret ?? "" };
  }

  function token(operation: DriveOperation, form: Record<string, string>, req: http.IncomingMessage, res: http.ServerResponse) {
    if (!String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
      return sendOAuthError(res, 400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded");
    }
    const forced = takeFailure(operation);
    if (forced)
      return sendOAuthError(
        res,
        forced.status,
        forced.reason ?? (forced.status >= 500 ? "internal_failure" : "invalid_grant"),
        forced.message ?? "Forced failure",
      );
    const client = clientOf(form, req);
    if (client.id !== clientId || client.secret !== clientSecret) return sendOAuthError(res, 401, "invalid_client", "Unauthorized");
    if (form.grant_type === "authorization_code") {
      const code = codes.get(form.code ?? "");
      if (!code || code.used || code.expiresAt < Date.now() || code.clientId !== client.id) {
        return sendOAuthError(res, 400, "invalid_grant", "Malformed auth code.");
      }
      if (code.redirectUri !== form.redirect_uri) return sendOAuthError(res, 400, "redirect_uri_mismatch", "Bad Request");
      code.used = true;
      let refreshToken: string | null = null;
      if (code.offline) {
        refreshToken = `1//${id(32)}`;
        refreshTokens.set(refreshToken, { clientId: client.id, scope: code.scope, revoked: false });
      }
      return sendJson(res, 200, {
        ...issueAccessToken(client.id, code.scope, refreshToken),
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
      });
    }
    if (form.grant_type === "refresh_token") {
      const refresh = refreshTokens.get(form.refresh_token ?? "");
      if (!refresh || refresh.revoked || refresh.clientId !== client.id) {
        return sendOAuthError(res, 400, "invalid_grant", "Token has been expired or revoked.");
      }
      return sendJson(res, 200, issueAccessToken(client.id, refresh.scope, form.refresh_token ?? null));
    }
    return sendOAuthError(res, 400, "unsupported_grant_type", `Invalid grant_type: ${form.grant_type ?? ""}`);
  }

  function revoke(tokenValue: string, res: http.ServerResponse) {
    const refresh = refreshTokens.get(tokenValue);
    if (refresh && !refresh.revoked) {
      refresh.revoked = true;
      for (const access of accessTokens.values()) if (access.refreshToken === tokenValue) access.revoked = true;
      return sendJson(res, 200, {});
    }
    const access = accessTokens.get(tokenValue);
    if (access && !access.revoked) {
      access.revoked = true;
      return sendJson(res, 200, {});
    }
    return sendOAuthError(res, 400, "invalid_token", "Token expired or revoked");
  }

  function authenticate(req: http.IncomingMessage): AccessRecord | null {
    const match = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? "");
    const access = match ? accessTokens.get(match[1]!) : undefined;
    if (!access || access.revoked || access.expiresAt <= Date.now()) return null;
    return access;
  }

  function checkParents(metadata: Record<string, unknown>, res: http.ServerResponse): string[] | null {
    const parents = Array.isArray(metadata.parents) ? metadata.parents.map(String) : [];
    const missing = parents.find((parent) => !folders.has(parent));
    if (missing) {
      sendJson(res, 404, {
        error: {
          code: 404,
          message: `File not found: ${missing}.`,
          errors: [{ message: `File not found: ${missing}.`, domain: "global", reason: "notFound", location: "fileId", locationType: "parameter" }],
        },
      });
      return null;
    }
    return parents;
  }

  function createFile(
    client: string,
    metadata: Record<string, unknown>,
    parents: string[],
    data: Buffer,
    mimeType: string,
    uploadType: FakeDriveFile["uploadType"],
  ) {
    const file: FakeDriveFile = {
      id: id(21),
      name: typeof metadata.name === "string" ? metadata.name : "Untitled",
      mimeType: typeof metadata.mimeType === "string" ? metadata.mimeType : mimeType,
      parents,
      appProperties: (metadata.appProperties as Record<string, string> | undefined) ?? {},
      data,
      permissions: [],
      createdTime: new Date(),
      clientId: client,
      uploadType,
    };
    files.set(file.id, file);
    return file;
  }

  function uploadMultipart(client: string, req: http.IncomingMessage, body: Buffer, record: RecordedRequest, res: http.ServerResponse) {
    const boundary = /boundary="?([^";]+)"?/i.exec(req.headers["content-type"] ?? "")?.[1];
    if (!String(req.headers["content-type"]).startsWith("multipart/related") || !boundary) {
      return sendDriveError(res, 400, "badContent", "Content-Type must be multipart/related with a boundary.");
    }
    const parts = parseMultipart(body, boundary);
    if (parts?.length !== 2 || !parts[0]!.headers["content-type"]?.startsWith("application/json")) {
      return sendDriveError(res, 400, "badContent", "Invalid multipart request: expected a JSON metadata part and a media part.");
    }
    let metadata: Record<string, unknown>;
    try {
      metadata = JSON.parse(parts[0]!.body.toString("utf8")) as Record<string, unknown>;
    } catch {
      return sendDriveError(res, 400, "parseError", "Parse Error");
    }
    record.body = metadata;
    const media = parts[1]!;
    if (media.body.length > MULTIPART_LIMIT) {
      return sendDriveError(res, 413, "uploadTooLarge", "Multipart uploads are limited to 5 MB; use a resumable upload.");
    }
    const parents = checkParents(metadata, res);
    if (!parents) return;
    const file = createFile(client, metadata, parents, media.body, media.headers["content-type"] ?? "application/octet-stream", "multipart");
    return sendJson(res, 200, fileResource(file, undefined));
  }

  function startResumable(client: string, req: http.IncomingMessage, body: Buffer, record: RecordedRequest, res: http.ServerResponse) {
    let metadata: Record<string, unknown> = {};
    if (body.length) {
      try {
        metadata = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
      } catch {
        return sendDriveError(res, 400, "parseError", "Parse Error");
      }
    }
    record.body = metadata;
    if (!checkParents(metadata, res)) return;
    const uploadId = id(24);
    sessions.set(uploadId, {
      clientId: client,
      metadata,
      contentType: String(req.headers["x-upload-content-type"] ?? metadata.mimeType ?? "application/octet-stream"),
      chunks: [],
      received: 0,
      file: null,
    });
    res.writeHead(200, { Location: `${url}/upload/drive/v3/files?uploadType=resumable&upload_id=${uploadId}`, "Content-Length": "0" }).end();
  }

  function uploadChunk(session: UploadSession, req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) {
    if (session.file) return sendJson(res, 200, fileResource(session.file, undefined));
    const header = String(req.headers["content-range"] ?? "");
    const status = /^bytes \*\/(\d+|\*)$/.exec(header);
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header);
    let total: number | null = null;
    if (status) {
      if (body.length) return sendDriveError(res, 400, "badRequest", "A status query has no body.");
      total = status[1] === "*" ? null : Number(status[1]);
    } else if (range) {
      const start = Number(range[1]);
      const end = Number(range[2]);
      total = range[3] === "*" ? null : Number(range[3]);
      if (end - start + 1 !== body.length) return sendDriveError(res, 400, "badRequest", "Content-Range does not match the body length.");
      if (start > session.received) return sendDriveError(res, 400, "badRequest", `Chunk starts at ${start}, expected ${session.received}.`);
      const last = total !== null && end + 1 === total;
      if (!last && body.length % CHUNK_GRANULARITY !== 0) {
        return sendDriveError(res, 400, "badRequest", "Chunks except the last must be multiples of 256 KiB.");
      }
      const fresh = body.subarray(session.received - start);
      session.chunks.push(fresh);
      session.received += fresh.length;
    } else {
      return sendDriveError(res, 400, "badRequest", `Invalid Content-Range: ${header}`);
    }
    if (total !== null && session.received === total) {
      const parents = Array.isArray(session.metadata.parents) ? session.metadata.parents.map(String) : [];
      session.file = createFile(session.clientId, session.metadata, parents, Buffer.concat(session.chunks), session.contentType, "resumable");
      session.chunks = [];
      return sendJson(res, 200, fileResource(session.file, undefined));
    }
    const headers: Record<string, string> = { "Content-Length": "0" };
    if (session.received > 0) headers.Range = `bytes=0-${session.received - 1}`;
    res.writeHead(308, headers).end();
  }

  function download(file: FakeDriveFile, req: http.IncomingMessage, res: http.ServerResponse) {
    const size = file.data.length;
    const header = req.headers.range;
    if (!header) {
      res.writeHead(200, { "Content-Type": file.mimeType, "Content-Length": String(size) }).end(file.data);
      return;
    }
    const match = /^bytes=(\d*)-(\d*)$/.exec(header);
    let start = match?.[1] ? Number(match[1]) : NaN;
    let end = match?.[2] ? Number(match[2]) : size - 1;
    if (match && !match[1] && match[2]) {
      start = Math.max(size - Number(match[2]), 0);
      end = size - 1;
    }
    end = Math.min(end, size - 1);
    if (!match || !Number.isFinite(start) || start > end || start >= size) {
      res.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
      return;
    }
    res
      .writeHead(206, { "Content-Type": file.mimeType, "Content-Length": String(end - start + 1), "Content-Range": `bytes ${start}-${end}/${size}` })
      .end(file.data.subarray(start, end + 1));
  }

  function fileResource(file: FakeDriveFile, fields: string | undefined) {
    const all: Record<string, unknown> = {
      kind: "drive#file",
      id: file.id,
      name: file.name,
      mimeType: file.mimeType,
      parents: file.parents,
      appProperties: file.appProperties,
      size: String(file.data.length),
      createdTime: file.createdTime.toISOString(),
      webViewLink: `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`,
      thumbnailLink: `https://lh3.googleusercontent.com/drive-storage/${file.id}=s220`,
    };
    const wanted = fields ? fields.split(",").map((field) => field.trim()) : ["kind", "id", "name", "mimeType"];
    return Object.fromEntries(Object.entries(all).filter(([key]) => wanted.includes(key)));
  }

  function sendForcedDrive(res: http.ServerResponse, forced: ForcedFailure) {
    const defaults: Record<number, [string, string, string]> = {
      400: ["global", "badRequest", "Bad Request"],
      401: ["global", "authError", "Invalid Credentials"],
      403: ["usageLimits", "userRateLimitExceeded", "User Rate Limit Exceeded"],
      404: ["global", "notFound", "File not found."],
      429: ["usageLimits", "rateLimitExceeded", "Rate Limit Exceeded"],
      500: ["global", "backendError", "Backend Error"],
      503: ["global", "backendError", "Service Unavailable"],
    };
    const [domain, reason, message] = defaults[forced.status] ?? ["global", "internalError", "Internal Error"];
    sendDriveError(res, forced.status, forced.reason ?? reason, forced.message ?? message, domain);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const api: DriveContractServer = {
    url,
    clientId,
    clientSecret,
    folderId,
    files,
    requests,
    get expiresIn() {
      return state.expiresIn;
    },
    set expiresIn(value: number | null) {
      state.expiresIn = value;
    },
    get consent() {
      return state.consent;
    },
    set consent(value: "page" | "auto" | "deny") {
      state.consent = value;
    },
    env() {
      return {
        MEDIA_STORE: "gdrive",
        GOOGLE_DRIVE_CLIENT_ID: clientId,
        GOOGLE_DRIVE_CLIENT_SECRET: clientSecret,
        GOOGLE_DRIVE_FOLDER_ID: folderId,
        GOOGLE_DRIVE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
        GOOGLE_DRIVE_TOKEN_URL: `${url}/token`,
        GOOGLE_DRIVE_REVOKE_URL: `${url}/revoke`,
        GOOGLE_DRIVE_API_URL: url,
        GOOGLE_DRIVE_UPLOAD_URL: url,
      };
    },
    config(siteUrl = "http://127.0.0.1:3000") {
      return {
        clientId,
        clientSecret,
        folderId,
        authUrl: `${url}/o/oauth2/v2/auth`,
        tokenUrl: `${url}/token`,
        revokeUrl: `${url}/revoke`,
        apiUrl: url,
        uploadUrl: url,
        redirectUri: `${siteUrl}/admin/drive/callback`,
      };
    },
    issueRefreshToken(scope = DRIVE_FILE_SCOPE) {
      const token = `1//${id(32)}`;
      refreshTokens.set(token, { clientId, scope, revoked: false });
      return token;
    },
    revokeAll() {
      for (const record of refreshTokens.values()) record.revoked = true;
      for (const record of accessTokens.values()) record.revoked = true;
    },
    expireAccessTokens() {
      for (const record of accessTokens.values()) record.expiresAt = 0;
    },
    failNext(operation, failure) {
      const queue = failures.get(operation) ?? [];
      queue.push({ ...failure, times: failure.times ?? 1 });
      failures.set(operation, queue);
    },
    calls(operation) {
      return requests.filter((request) => request.operation === operation);
    },
    isRefreshTokenActive(tokenValue) {
      const record = refreshTokens.get(tokenValue);
      return Boolean(record && !record.revoked);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** multipart/related body → its parts (headers lower-cased), or null when malformed. */
export function parseMultipart(body: Buffer, boundary: string): Array<{ headers: Record<string, string>; body: Buffer }> | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Array<{ headers: Record<string, string>; body: Buffer }> = [];
  let position = body.indexOf(delimiter);
  if (position < 0) return null;
  for (;;) {
    position += delimiter.length;
    if (body.subarray(position, position + 2).toString() === "--") return parts;
    if (body.subarray(position, position + 2).toString() !== "\r\n") return null;
    position += 2;
    const headerEnd = body.indexOf("\r\n\r\n", position);
    if (headerEnd < 0) return null;
    const headers: Record<string, string> = {};
    for (const line of body.subarray(position, headerEnd).toString("utf8").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const contentStart = headerEnd + 4;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), contentStart);
    if (next < 0) return null;
    parts.push({ headers, body: Buffer.from(body.subarray(contentStart, next)) });
    position = next + 2;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=UTF-8", "Content-Length": String(Buffer.byteLength(text)) }).end(text);
}

function sendDriveError(res: http.ServerResponse, status: number, reason: string, message: string, domain = "global") {
  sendJson(res, status, { error: { code: status, message, errors: [{ message, domain, reason }] } });
}

function sendOAuthError(res: http.ServerResponse, status: number, error: string, description: string) {
  sendJson(res, status, { error, error_description: description });
}

function sendHtml(res: http.ServerResponse, status: number, html: string) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" }).end(html);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
