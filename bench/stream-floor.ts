/**
 * `npm run bench:stream-floor [-- --streams 10000]`
 *
 * What one open page's event stream costs in memory, and how much of it is Node's: the same `--streams` connections
 * (`GET /events`, each a socket of its own from a process of its own) held three ways, each in a fresh process —
 * - `socket`: a bare TCP server that writes the stream's HTTP head itself (the floor: a socket and its handle);
 * - `http`: Node's HTTP server answering with `writeHead` and one `write` (its parser, request, response and timers);
 * - `hub`: the site's hub (server/event-streams.ts, `createEventStreamHub`) behind Node's HTTP server, as the app holds
 *   them (one subscription, one set entry a stream).
 * Reported: RSS and V8 heap per stream, after a full GC, for each. The app's own figure under load is `npm run
 * bench:live`'s "KB por fluxo"; nginx + nchan's, `npm run bench:live -- --fanout nchan`'s.
 */
import { fork } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { parseArgs } from "node:util";
import { createEventStreamHub } from "#server/event-streams.ts";

type Holder = "socket" | "http" | "hub";
const HOLDERS: Holder[] = ["socket", "http", "hub"];
const REQUEST =
  "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n" +
  "User-Agent: Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36\r\n\r\n";

const [role, ...rest] = process.argv.slice(2);

/** Opens `count` streams to `port`; tells the parent once each has its first bytes, then holds them. */
async function clients(port: number, count: number) {
  let ready = 0;
  const sockets: net.Socket[] = [];
  for (let index = 0; index < count; index++) {
    const socket = net.connect({ port, host: "127.0.0.1" }, () => socket.write(REQUEST));
    socket.on("error", () => undefined);
    socket.once("data", () => {
      if (++ready === count) process.send?.("ready");
    });
    sockets.push(socket);
    // Not faster than the server's accept queue takes them.
    if (index % 500 === 499) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function heldBy(holder: Holder): { server: net.Server; size(): number } {
  if (holder === "socket") {
    const held = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      socket.once("data", () => {
        socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\nretry: 3000\n\n");
        held.add(socket);
        socket.once("close", () => held.delete(socket));
      });
    });
    return { server, size: () => held.size };
  }
  if (holder === "http") {
    const held = new Set<http.ServerResponse>();
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
      res.write("retry: 3000\n\n");
      held.add(res);
      res.once("close", () => held.delete(res));
    });
    return { server, size: () => held.size };
  }
  const hub = createEventStreamHub({
    subscribe: () => () => undefined,
    isNewsroomMember: async () => false,
    hasSession: () => false,
    limits: { perAddress: Number.MAX_SAFE_INTEGER, total: Number.MAX_SAFE_INTEGER },
  });
  const server = http.createServer((req, res) => hub.handle(req, res, "127.0.0.1"));
  return { server, size: () => hub.size() };
}

/** Holds `count` streams the way `holder` says; prints one JSON line with its memory per stream. */
async function measure(holder: Holder, count: number) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("Rode com --expose-gc.");
  const { server, size } = heldBy(holder);
  // As the app's server keeps them (server/main.ts).
  if (server instanceof http.Server) server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  gc();
  const before = process.memoryUsage();
  const child = fork(import.meta.filename, ["clients", String(address.port), String(count)]);
  await new Promise((resolve) => child.once("message", resolve));
  gc();
  const after = process.memoryUsage();
  const held = size();
  child.kill();
  console.log(
    JSON.stringify({ holder, held, rssKb: (after.rss - before.rss) / 1024 / held, heapKb: (after.heapUsed - before.heapUsed) / 1024 / held }),
  );
  process.exit(0);
}

if (role === "clients") await clients(Number(rest[0]), Number(rest[1]));
else if (role === "measure") await measure(rest[0] as Holder, Number(rest[1]));
else {
  const { values } = parseArgs({ options: { streams: { type: "string", default: "10000" } } });
  const count = Number(values.streams);
  console.log(`${count} fluxos abertos de cada jeito, cada um num processo novo (memória por fluxo, depois de um GC completo):`);
  for (const holder of HOLDERS) {
    const child = fork(import.meta.filename, ["measure", holder, String(count)], {
      execArgv: ["--expose-gc", "--max-semi-space-size=8"],
      env: { ...process.env, MALLOC_ARENA_MAX: "2" },
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    await new Promise((resolve) => child.once("exit", resolve));
    const result = JSON.parse(output.trim()) as { holder: Holder; held: number; rssKb: number; heapKb: number };
    console.log(
      `  ${holder.padEnd(6)} ${result.held} fluxos: RSS ${result.rssKb.toFixed(1)} KB, heap do V8 ${result.heapKb.toFixed(1)} KB por fluxo`,
    );
  }
}
