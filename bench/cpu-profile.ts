/**
 * Reads a V8 `.cpuprofile` (written by `node --cpu-prof`) and says where the time went: self time by part (a
 * package of node_modules, Node's own code, the app's files, the garbage collector, idle) and the functions that
 * took most of it. What `npm run bench -- --cpu-prof` prints for the uncached server; the file itself opens as a
 * flame graph in Chrome DevTools (Performance → Load profile) or speedscope.
 */
import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time per part, largest first (ms and share of the busy time, idle left out of the share). */
  parts: Array<{ part: string; ms: number; share: number }>;
  functions: Array<{ name: string; part: string; ms: number; share: number }>;
}

/** The part of the program a script URL belongs to. */
export function partOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === "(garbage collector)") return "coletor de lixo (GC)";
    if (functionName === "(idle)") return "ocioso";
    if (functionName === "(program)") return "V8/nativo (program)";
    return "nativo";
  }
  if (url.startsWith("node:")) return "Node (node:…)";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const build = url.indexOf("/build/server/");
  if (build >= 0) return "app (build/server)";
  const app = url.match(/\/(app|server)\/.*$/);
  return app ? `app (${app[0].slice(1)})` : url.replace(/^file:\/\//, "");
}

export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  // Each sample's time is the delta to the next one (the last has none: V8's own convention).
  for (let index = 0; index < profile.samples.length; index++) {
    const delta = profile.timeDeltas[index + 1] ?? 0;
    const id = profile.samples[index]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  }
  const parts = new Map<string, number>();
  const functions = new Map<string, { part: string; us: number }>();
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const part = partOf(url, functionName);
    totalUs += us;
    if (part === "ocioso") idleUs += us;
    parts.set(part, (parts.get(part) ?? 0) + us);
    const name =
      `${functionName || "(anônima)"} ${url ? `${url.replace(/^.*\/(node_modules|build|app|server)\//, "$1/")}:${lineNumber + 1}` : ""}`.trim();
    const entry = functions.get(name) ?? { part, us: 0 };
    entry.us += us;
    functions.set(name, entry);
  }
  const busyUs = Math.max(totalUs - idleUs, 1);
  return {
    totalMs: totalUs / 1000,
    parts: [...parts].map(([part, us]) => ({ part, ms: us / 1000, share: part === "ocioso" ? 0 : us / busyUs })).sort((a, b) => b.ms - a.ms),
    functions: [...functions]
      .filter(([, entry]) => entry.part !== "ocioso")
      .map(([name, entry]) => ({ name, part: entry.part, ms: entry.us / 1000, share: entry.us / busyUs }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top),
  };
}

export function formatProfile(summary: ProfileSummary): string {
  const percent = (share: number) => `${(share * 100).toFixed(1).padStart(5)} %`;
  const lines = [`Perfil de CPU: ${(summary.totalMs / 1000).toFixed(1)} s amostrados. Tempo próprio por parte (fora o ocioso):`];
  for (const part of summary.parts) {
    if (part.part === "ocioso") lines.push(`  ${"ocioso".padEnd(34)} ${(part.ms / 1000).toFixed(1).padStart(7)} s`);
    else if (part.share >= 0.005) lines.push(`  ${part.part.padEnd(34)} ${(part.ms / 1000).toFixed(1).padStart(7)} s ${percent(part.share)}`);
  }
  lines.push("Funções com mais tempo próprio:");
  for (const fn of summary.functions) lines.push(`  ${percent(fn.share)}  ${fn.name.slice(0, 110)}`);
  return lines.join("\n");
}

// `node bench/cpu-profile.ts <file.cpuprofile>`: the same summary for a profile written some other way.
if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error("Uso: node bench/cpu-profile.ts <arquivo.cpuprofile>");
  console.log(formatProfile(summarizeProfile(file, 25)));
}
