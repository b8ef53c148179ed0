declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  const build: ServerBuild;
  export = build;
}

/** proxy-addr (Express's own dependency, which ships no types): the client address under a trust function. */
declare module "proxy-addr" {
  import type { IncomingMessage } from "node:http";
  function proxyAddr(req: IncomingMessage, trust: (address: string, hop: number) => boolean): string;
  export default proxyAddr;
}
