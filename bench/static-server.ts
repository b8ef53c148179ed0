/**
 * The reference of `npm run bench`: plain node:http answering every request with one page held in memory (the
 * home as the page cache sends it: same headers, same brotli bytes). What the app does on top of this is what a
 * cached page costs. Usage: node bench/static-server.ts <page.json> <port>
 */
import fs from "node:fs";
import http from "node:http";

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error("Uso: node bench/static-server.ts <página.json> <porta>");
const page = JSON.parse(fs.readFileSync(file, "utf8")) as { status: number; rawHeaders: Array<[string, string]>; body: string };
const body = Buffer.from(page.body, "base64");
// Node writes these itself, as it does for the app server.
const own = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);
const headers = page.rawHeaders.filter(([name]) => !own.has(name.toLowerCase())).flat();

const server = http.createServer((req, res) => {
  res.writeHead(page.status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
});
// The same keep-alive as server/main.ts, so the Keep-Alive header is the same size too.
server.keepAliveTimeout = 65_000;
server.listen(Number(port), "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
