import { type ChildProcess, spawn } from "node:child_process";
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The dummy credentials s3rver accepts (it checks the SigV4 signatures made with them). */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

const LAUNCHER = fileURLToPath(new URL("./s3rver-process.ts", import.meta.url));

export interface TestS3Server {
  endpoint: string;
  port: number;
  buckets: string[];
  /** Environment variables that point the app at this server (MEDIA_STORE=s3, path-style, dummy keys). */
  env(bucket: string, extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3 server (s3rver) on 127.0.0.1 at a free port, in a child process, keeping its objects in a fresh
 * temporary folder, with the given buckets already created. `stop()` ends it and removes the folder.
 */
export async function startS3Server(buckets: string[]): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "eef-s3rver-"));
  const child = spawn(process.execPath, ["--openssl-legacy-provider", LAUNCHER, JSON.stringify({ directory, buckets })], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let port: number;
  try {
    port = await readPort(child);
  } catch (error) {
    child.kill("SIGKILL");
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    port,
    buckets,
    env(bucket, extra = {}) {
      return {
        MEDIA_STORE: "s3",
        S3_BUCKET: bucket,
        S3_REGION: "us-east-1",
        S3_ENDPOINT: endpoint,
        S3_FORCE_PATH_STYLE: "1",
        S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
        ...extra,
      };
    },
    async stop() {
      try {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
          await exited;
          clearTimeout(timer);
        }
      } finally {
        fs.rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

/** Waits for the launcher's `{"port":N}` line; fails with its stderr if it exits first. */
function readPort(child: ChildProcess, timeoutMs = 20_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => done(new Error(`s3rver did not start in ${timeoutMs} ms\n${stderr}`)), timeoutMs);
    const done = (error: Error | null, port?: number) => {
      clearTimeout(timer);
      child.stdout?.off("data", onStdout);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(port!);
    };
    const onStdout = (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const line = stdout.split("\n", 1)[0];
      if (stdout.includes("\n") && line) {
        try {
          done(null, (JSON.parse(line) as { port: number }).port);
        } catch {
          done(new Error(`unexpected s3rver output: ${line}`));
        }
      }
    };
    const onExit = (code: number | null) => done(new Error(`s3rver exited (${code}) before listening\n${stderr}`));
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdout?.on("data", onStdout);
    child.on("exit", onExit);
  });
}

/** Every key in `bucket`, sorted (looked at directly, without going through a store). */
export async function bucketKeys(client: S3Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}
