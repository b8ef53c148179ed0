import net from "node:net";

export interface TcpProxy {
  port: number;
  /** Closes the proxy and every connection through it: the target becomes unreachable for its clients. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /**
   * Holds every byte in both directions, on the open connections and on new ones, without closing anything: the link
   * goes silent (no reset, no error), as a network that drops packets does.
   */
  hold(): void;
  /** Delivers what was held and lets bytes through again. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 to `targetPort` on the same host. `cut()` closes it and every connection through it (the
 * target becomes unreachable for its clients); `restore()` listens again on the same port. `hold()` keeps the
 * connections open but passes nothing until `release()`.
 */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let held = false;
  /** What arrived while held, per destination, in order. */
  const waiting: Array<{ to: net.Socket; chunk: Buffer }> = [];
  const forward = (from: net.Socket, to: net.Socket) =>
    from.on("data", (chunk: Buffer) => {
      if (held) waiting.push({ to, chunk });
      else to.write(chunk);
    });
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: "127.0.0.1", port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    forward(client, upstream);
    forward(upstream, client);
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    waiting.length = 0;
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    cut,
    restore: () => listen(port),
    hold() {
      held = true;
    },
    release() {
      held = false;
      for (const { to, chunk } of waiting.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    async close() {
      held = false;
      waiting.length = 0;
      if (server.listening) await cut();
    },
  };
}
