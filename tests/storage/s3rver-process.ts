/**
 * Runs s3rver in a process of its own: `node --openssl-legacy-provider tests/storage/s3rver-process.ts '{json}'`
 * with `{ directory, buckets, address? }`. Prints `{"port":N}` on one line once it listens, and stops when stdin
 * closes (the test process ended, however it ended) or on SIGTERM.
 *
 * Why a process, and why the flag: s3rver makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3
 * (Node 17+) only offers through its legacy provider; without it any listing that needs a second page fails
 * with InternalError.
 */
import S3rver from "s3rver";

interface Options {
  directory: string;
  buckets: string[];
  address?: string;
}

const options = JSON.parse(process.argv[2] ?? "{}") as Options;
const server = new S3rver({
  address: options.address ?? "127.0.0.1",
  port: 0,
  silent: true,
  directory: options.directory,
  configureBuckets: options.buckets.map((name) => ({ name })),
});
const address = await server.run();

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await server.close();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
process.stdin.on("end", () => void stop());
process.stdin.on("error", () => void stop());
process.stdin.resume();

process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
