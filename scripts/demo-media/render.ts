/**
 * The demo media's generator (no network, no fonts): editorial-style sport illustrations drawn as SVG and
 * rasterised with sharp, fictional sponsor logos and a tiny MP4 clip made with ffmpeg's lavfi sources. It runs only
 * on a developer's machine (`npm run demo:media`); its output is committed under demo/media and the demo seed copies
 * those files through the normal media pipeline.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import type { DemoSport } from "#app/.server/seed/demo-content.ts";
import { ffmpegPath } from "#app/.server/media/ffmpeg.server.ts";

const loadSharp = async () => sharp;

const W = 1600;
const H = 900;
/** Extra canvas around the frame: librsvg clips filter input to the canvas, so blurs would fade at the edges. */
const PAD = 120;

// ---------------------------------------------------------------- helpers

type Pt = [number, number];
type V3 = [number, number, number];
type Stop = [offset: number, color: string, opacity?: number];
type Rng = () => number;

function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const hash = (s: string) => [...s].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619), 2166136261);
const pick = <T>(list: readonly T[], i: number): T => list[((i % list.length) + list.length) % list.length]!;
const n1 = (n: number) => String(Math.round(n * 10) / 10);
const pts = (p: Pt[]) => p.map(([x, y]) => `${n1(x)},${n1(y)}`).join(" ");
const poly = (p: Pt[], attrs = "") => `<polygon points="${pts(p)}" ${attrs}/>`;
const stops = (s: Stop[]) => s.map(([o, c, a = 1]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a}"/>`).join("");

/** Linear gradient in bounding-box units (default: top to bottom). */
const lin = (id: string, s: Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1) =>
  `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops(s)}</linearGradient>`;
/** Radial gradient in bounding-box units with an optional focal point. */
const rad = (id: string, s: Stop[], cx = 0.5, cy = 0.5, r = 0.5, fx = cx, fy = cy) =>
  `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}" fx="${fx}" fy="${fy}">${stops(s)}</radialGradient>`;
/** Radial gradient in user space (pixels). */
const radU = (id: string, s: Stop[], cx: number, cy: number, r: number) =>
  `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${cx}" cy="${cy}" r="${r}">${stops(s)}</radialGradient>`;
const blur = (id: string, sx: number, sy = sx) =>
  `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${sx} ${sy}"/></filter>`;
/** Coloured speckle texture (alpha from fractal noise) clipped to the element it is applied to. */
const texture = (id: string, freq: string | number, [cr, cg, cb]: V3, k: number, b: number, seed = 3, oct = 3) =>
  `<filter id="${id}" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">` +
  `<feTurbulence type="fractalNoise" baseFrequency="${freq}" numOctaves="${oct}" seed="${seed}"/>` +
  `<feColorMatrix values="0 0 0 0 ${cr} 0 0 0 0 ${cg} 0 0 0 0 ${cb} ${k} 0 0 0 ${b}"/>` +
  `<feComposite in2="SourceAlpha" operator="in"/></filter>`;

/** Blurry out-of-focus dots: crowds, stadium lights. */
function bokeh(r: Rng, box: [number, number, number, number], n: number, colors: string[], size: Pt, op: Pt): string {
  const [x0, y0, x1, y1] = box;
  let s = "";
  for (let i = 0; i < n; i++) {
    const rr = size[0] + r() * (size[1] - size[0]);
    s += `<circle cx="${n1(x0 + r() * (x1 - x0))}" cy="${n1(y0 + r() * (y1 - y0))}" r="${n1(rr)}" fill="${pick(colors, Math.floor(r() * colors.length))}" opacity="${(op[0] + r() * (op[1] - op[0])).toFixed(2)}"/>`;
  }
  return s;
}

/** Wraps a scene with a soft key light, a vignette and film grain. */
function frame(defs: string, body: string, o: { light?: Pt; lightOp?: number; vignette?: number; grain?: number } = {}): string {
  const [lx, ly] = o.light ?? [800, 180];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W + 2 * PAD}" height="${H + 2 * PAD}" viewBox="${-PAD} ${-PAD} ${W + 2 * PAD} ${H + 2 * PAD}"><defs>${defs}` +
    radU(
      "kLight",
      [
        [0, "#fff8e8", o.lightOp ?? 0.28],
        [1, "#fff8e8", 0],
      ],
      lx,
      ly,
      950,
    ) +
    rad(
      "kVig",
      [
        [0.5, "#000", 0],
        [1, "#000", o.vignette ?? 0.6],
      ],
      0.5,
      0.42,
      0.78,
    ) +
    `<filter id="kGrain" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB"><feTurbulence type="fractalNoise" baseFrequency="0.8" numOctaves="2" seed="11"/><feColorMatrix type="saturate" values="0"/><feComponentTransfer><feFuncA type="table" tableValues="1 1"/></feComponentTransfer></filter>` +
    `</defs>${body}` +
    `<rect width="${W}" height="${H}" fill="url(#kLight)" style="mix-blend-mode:screen"/>` +
    `<rect width="${W}" height="${H}" fill="url(#kVig)"/>` +
    `<rect width="${W}" height="${H}" filter="url(#kGrain)" opacity="${o.grain ?? 0.22}" style="mix-blend-mode:overlay"/></svg>`
  );
}

// ------------------------------------------------------- ground perspective

/** Pinhole camera over a ground plane: x lateral, z depth, y height (metres). */
type Cam = { cx: number; hy: number; f: number; h: number };
const proj = (c: Cam, x: number, z: number, y = 0): Pt => [c.cx + (x * c.f) / z, c.hy + ((c.h - y) * c.f) / z];
const gp = (c: Cam, p: Array<[number, number, number?]>) => p.map(([x, z, y]) => proj(c, x, z, y ?? 0));
const grect = (c: Cam, x1: number, z1: number, x2: number, z2: number) =>
  gp(c, [
    [x1, z1],
    [x2, z1],
    [x2, z2],
    [x1, z2],
  ]);
/** Painted ground line of real width w. */
function gline(c: Cam, x1: number, z1: number, x2: number, z2: number, w = 0.08): string {
  const l = Math.hypot(x2 - x1, z2 - z1);
  const nx = (-(z2 - z1) / l) * (w / 2);
  const nz = ((x2 - x1) / l) * (w / 2);
  return poly(
    gp(c, [
      [x1 + nx, z1 + nz],
      [x2 + nx, z2 + nz],
      [x2 - nx, z2 - nz],
      [x1 - nx, z1 - nz],
    ]),
  );
}
/** Painted ground arc (angle 0 points at the camera). */
function garc(c: Cam, cx: number, cz: number, r: number, a0: number, a1: number, w = 0.08, steps = 40): string {
  const ring = (rr: number) =>
    Array.from({ length: steps + 1 }, (_, i): [number, number] => {
      const a = a0 + ((a1 - a0) * i) / steps;
      return [cx + rr * Math.sin(a), cz - rr * Math.cos(a)];
    });
  return poly(gp(c, [...ring(r + w / 2), ...ring(r - w / 2).reverse()]));
}
const deg = (d: number) => (d * Math.PI) / 180;

// ------------------------------------------------------------------ balls

const norm = ([x, y, z]: V3): V3 => {
  const l = Math.hypot(x, y, z);
  return [x / l, y / l, z / l];
};
const mix3 = (a: V3, b: V3, t: number): V3 => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
/** Great-circle-ish samples from a to b (b excluded). */
const arc = (a: V3, b: V3, n = 6): V3[] => Array.from({ length: n }, (_, i) => norm(mix3(a, b, i / n)));
function rot([x, y, z]: V3, [ax, ay, az]: V3): V3 {
  let c = Math.cos(ax),
    s = Math.sin(ax);
  [y, z] = [y * c - z * s, y * s + z * c];
  c = Math.cos(ay);
  s = Math.sin(ay);
  [x, z] = [x * c + z * s, -x * s + z * c];
  c = Math.cos(az);
  s = Math.sin(az);
  [x, y] = [x * c - y * s, x * s + y * c];
  return [x, y, z];
}
type Sphere = { cx: number; cy: number; r: number; rot: V3 };
/** Orthographic projection; points on the far side are pushed onto the rim. */
function onSphere(s: Sphere, p: V3): Pt {
  let [x, y] = p;
  if (p[2] < 0) {
    const l = Math.hypot(x, y) || 1;
    x /= l;
    y /= l;
  }
  return [s.cx + x * s.r, s.cy - y * s.r];
}
function spherePoly(s: Sphere, loop: V3[], attrs: string): string {
  const r = loop.map((p) => rot(p, s.rot));
  return r.some((p) => p[2] > 0)
    ? poly(
        r.map((p) => onSphere(s, p)),
        attrs,
      )
    : "";
}
function sphereLines(s: Sphere, curves: V3[][]): string {
  let d = "";
  for (const curve of curves) {
    let pen = false;
    for (const p of curve.map((q) => rot(q, s.rot))) {
      if (p[2] > 0) {
        const [x, y] = onSphere(s, p);
        d += `${pen ? "L" : "M"}${n1(x)} ${n1(y)}`;
        pen = true;
      } else pen = false;
    }
  }
  return d;
}
/** Base disc + shading overlay shared by every ball. */
function ballShell(id: string, s: Sphere, base: Stop[], inner: string): string {
  return (
    `<defs>${rad(`${id}b`, base, 0.5, 0.5, 0.5, 0.34, 0.3)}${rad(
      `${id}s`,
      [
        [0, "#fff", 0.55],
        [0.28, "#fff", 0],
        [0.7, "#000", 0.08],
        [1, "#000", 0.55],
      ],
      0.5,
      0.5,
      0.5,
      0.33,
      0.28,
    )}<clipPath id="${id}c"><circle cx="${s.cx}" cy="${s.cy}" r="${s.r}"/></clipPath></defs>` +
    `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" fill="url(#${id}b)"/><g clip-path="url(#${id}c)">${inner}</g>` +
    `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" fill="url(#${id}s)"/>`
  );
}

const PHI = (1 + Math.sqrt(5)) / 2;
const ICO: V3[] = [
  [-1, PHI, 0],
  [1, PHI, 0],
  [-1, -PHI, 0],
  [1, -PHI, 0],
  [0, -1, PHI],
  [0, 1, PHI],
  [0, -1, -PHI],
  [0, 1, -PHI],
  [PHI, 0, -1],
  [PHI, 0, 1],
  [-PHI, 0, -1],
  [-PHI, 0, 1],
];
const ICO_EDGES: Pt[] = ICO.flatMap((a, i) =>
  ICO.flatMap((b, j): Pt[] => (j > i && Math.abs(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) - 2) < 1e-6 ? [[i, j]] : [])),
);
/** Truncated icosahedron: 12 pentagon loops + the seams between hexagons. */
function truncatedIcosahedron(steps = 6): { pentagons: V3[][]; seams: V3[][] } {
  const pentagons = ICO.map((v, i) => {
    const n = norm(v);
    const corners = ICO_EDGES.filter((e) => e.includes(i)).map(([a, b]) => mix3(v, ICO[a === i ? b : a]!, 1 / 3));
    const c0 = corners[0]!;
    const k = dot(c0, n);
    const u = norm([c0[0] - n[0] * k, c0[1] - n[1] * k, c0[2] - n[2] * k]);
    const w = cross(n, u);
    corners.sort((p, q) => Math.atan2(dot(p, w), dot(p, u)) - Math.atan2(dot(q, w), dot(q, u)));
    return corners.flatMap((p, k) => arc(p, corners[(k + 1) % 5]!, steps));
  });
  const seams = ICO_EDGES.map(([a, b]) => {
    const p = mix3(ICO[a]!, ICO[b]!, 1 / 3);
    const q = mix3(ICO[a]!, ICO[b]!, 2 / 3);
    return [...arc(p, q, steps), norm(q)];
  });
  return { pentagons, seams };
}

function soccerBall(id: string, s: Sphere, panel = "#17191d"): string {
  const { pentagons, seams } = truncatedIcosahedron();
  const inner =
    `<defs>${rad(
      `${id}p`,
      [
        [0, "#3a3f47"],
        [1, panel],
      ],
      0.5,
      0.5,
      0.7,
      0.3,
      0.25,
    )}</defs>` +
    pentagons.map((p) => spherePoly(s, p, `fill="url(#${id}p)"`)).join("") +
    `<path d="${sphereLines(s, [...seams, ...pentagons.map((p) => [...p, p[0]!])])}" fill="none" stroke="#5b626c" stroke-opacity=".55" stroke-width="${n1(s.r * 0.014)}" stroke-linejoin="round"/>`;
  return ballShell(
    id,
    s,
    [
      [0, "#ffffff"],
      [0.55, "#eceff2"],
      [1, "#aeb6bf"],
    ],
    inner,
  );
}

function basketball(id: string, s: Sphere): string {
  const t = Array.from({ length: 73 }, (_, i) => (i / 72) * Math.PI * 2);
  const k = Math.sqrt(1 - 0.72 ** 2);
  const curves: V3[][] = [
    t.map((a): V3 => [Math.cos(a), Math.sin(a), 0]),
    t.map((a): V3 => [0, Math.cos(a), Math.sin(a)]),
    t.map((a): V3 => [0.72, k * Math.cos(a), k * Math.sin(a)]),
    t.map((a): V3 => [-0.72, k * Math.cos(a), k * Math.sin(a)]),
  ];
  const inner =
    `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" fill="#000" opacity=".5" filter="url(#${id}t)"/>` +
    `<path d="${sphereLines(s, curves)}" fill="none" stroke="#2a140a" stroke-width="${n1(s.r * 0.045)}" stroke-linecap="round"/>`;
  return (
    `<defs>${texture(`${id}t`, 0.9, [0.35, 0.12, 0.02], 2.2, -1.1, 5, 2)}</defs>` +
    ballShell(
      id,
      s,
      [
        [0, "#ff9d4a"],
        [0.6, "#e8691f"],
        [1, "#9c3a0c"],
      ],
      inner,
    )
  );
}

function volleyball(id: string, s: Sphere, colors: [string, string, string]): string {
  const axes: V3[] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  let inner = "";
  const lines: V3[][] = [];
  for (let a = 0; a < 3; a++) {
    for (const sign of [1, -1]) {
      const c = axes[a]!.map((x) => x * sign) as V3;
      const e1 = axes[(a + 1) % 3]!;
      const e2 = axes[(a + 2) % 3]!;
      const at = (u: number, v: number): V3 => [c[0] + u * e1[0] + v * e2[0], c[1] + u * e1[1] + v * e2[1], c[2] + u * e1[2] + v * e2[2]];
      for (let k = 0; k < 3; k++) {
        const u0 = -1 + (2 * k) / 3;
        const u1 = u0 + 2 / 3;
        const loop = [
          ...arc(at(u0, -1), at(u1, -1), 4),
          ...arc(at(u1, -1), at(u1, 1), 10),
          ...arc(at(u1, 1), at(u0, 1), 4),
          ...arc(at(u0, 1), at(u0, -1), 10),
        ];
        inner += spherePoly(s, loop, `fill="${colors[(k + a) % 3]}"`);
        lines.push([...loop, loop[0]!]);
      }
    }
  }
  inner += `<path d="${sphereLines(s, lines)}" fill="none" stroke="#000" stroke-opacity=".28" stroke-width="${n1(s.r * 0.02)}"/>`;
  return ballShell(
    id,
    s,
    [
      [0, "#fff"],
      [1, "#ccc"],
    ],
    inner,
  );
}

function tennisBall(id: string, s: Sphere): string {
  const a = 0.72;
  const b = 1 - a;
  const seam = Array.from({ length: 121 }, (_, i): V3 => {
    const t = (i / 120) * Math.PI * 2;
    return [a * Math.cos(t) + b * Math.cos(3 * t), a * Math.sin(t) - b * Math.sin(3 * t), 2 * Math.sqrt(a * b) * Math.sin(2 * t)];
  });
  const d = sphereLines(s, [seam]);
  const inner =
    `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" fill="#000" filter="url(#${id}t)"/>` +
    `<path d="${d}" fill="none" stroke="#9aa33a" stroke-opacity=".6" stroke-width="${n1(s.r * 0.13)}" stroke-linecap="round"/>` +
    `<path d="${d}" fill="none" stroke="#fbfbf2" stroke-width="${n1(s.r * 0.075)}" stroke-linecap="round"/>`;
  return (
    `<defs>${texture(`${id}t`, 1.1, [1, 1, 0.8], 1.2, -0.6, 9, 2)}</defs><g filter="url(#${id}f)">` +
    ballShell(
      id,
      s,
      [
        [0, "#f4ff7a"],
        [0.55, "#d4e433"],
        [1, "#7f8f12"],
      ],
      inner,
    ) +
    `</g><defs><filter id="${id}f" x="-10%" y="-10%" width="120%" height="120%"><feTurbulence type="fractalNoise" baseFrequency="0.7" numOctaves="2" seed="4"/><feDisplacementMap in="SourceGraphic" scale="4" xChannelSelector="R" yChannelSelector="G"/></filter></defs>`
  );
}

/** Soft contact / cast shadow. */
const shadow = (cx: number, cy: number, rx: number, ry: number, op = 0.55, id = "kShadowBlur") =>
  `<ellipse cx="${n1(cx)}" cy="${n1(cy)}" rx="${n1(rx)}" ry="${n1(ry)}" fill="#000" opacity="${op}" filter="url(#${id})"/>`;

// ------------------------------------------------------------------ scenes

/** Floodlight bank: a grid of bright lamps with a soft halo. */
function floodlight(x: number, y: number, cols: number, rows: number, id: string): string {
  let lamps = "";
  for (let i = 0; i < cols; i++) for (let j = 0; j < rows; j++) lamps += `<circle cx="${x + (i - (cols - 1) / 2) * 16}" cy="${y + j * 15}" r="5.5"/>`;
  return `<circle cx="${x}" cy="${y + rows * 7}" r="${cols * 26}" fill="url(#${id})"/><g fill="#fffdf3">${lamps}</g>`;
}

function futebol(v: number, r: Rng): string {
  const [g1, g2] = pick(
    [
      ["#3f9d43", "#2f8535"],
      ["#389a4c", "#2a823d"],
      ["#4c9f3a", "#3a872d"],
    ],
    v,
  );
  const led = pick(
    [
      ["#0b3d91", "#1668d9", "#e0b400"],
      ["#a3001e", "#e85d04", "#1d3557"],
      ["#4c1d95", "#0f766e", "#d4a100"],
    ],
    v,
  );
  const c: Cam = { cx: 720 + (r() - 0.5) * 80, hy: 330, f: 1500, h: 1.4 };
  const G = 28;
  const Gb = G + 2.2;
  const BZ = G + 4;
  let stripes = "";
  for (let k = 0; BZ - k * 4.5 > 2; k++) {
    stripes += poly(grect(c, -80, Math.max(2, BZ - (k + 1) * 4.5), 80, BZ - k * 4.5), `fill="${k % 2 ? g1 : g2}"`);
  }
  const lw = 0.12;
  const lines = [
    gline(c, -60, G, 60, G, lw),
    gline(c, -20.16, G, -20.16, G - 16.5, lw),
    gline(c, 20.16, G, 20.16, G - 16.5, lw),
    gline(c, -20.16, G - 16.5, 20.16, G - 16.5, lw),
    gline(c, -9.16, G, -9.16, G - 5.5, lw),
    gline(c, 9.16, G, 9.16, G - 5.5, lw),
    gline(c, -9.16, G - 5.5, 9.16, G - 5.5, lw),
    garc(c, 0, G - 11, 9.15, deg(-53), deg(53), lw),
    garc(c, 0, G - 11, 0.1, 0, Math.PI * 2, 0.2, 16),
  ].join("");
  const post = (x: number) =>
    poly(
      gp(c, [
        [x - 0.06, G],
        [x + 0.06, G],
        [x + 0.06, G, 2.5],
        [x - 0.06, G, 2.5],
      ]),
    );
  const net =
    poly(
      gp(c, [
        [-3.66, Gb],
        [3.66, Gb],
        [3.66, Gb, 1.7],
        [-3.66, Gb, 1.7],
      ]),
    ) +
    poly(
      gp(c, [
        [-3.66, G, 2.44],
        [3.66, G, 2.44],
        [3.66, Gb, 1.7],
        [-3.66, Gb, 1.7],
      ]),
    ) +
    poly(
      gp(c, [
        [-3.66, G],
        [-3.66, G, 2.44],
        [-3.66, Gb, 1.7],
        [-3.66, Gb],
      ]),
    ) +
    poly(
      gp(c, [
        [3.66, G],
        [3.66, G, 2.44],
        [3.66, Gb, 1.7],
        [3.66, Gb],
      ]),
    );
  const [, boardTop] = proj(c, 0, BZ, 0.9);
  const [, boardBot] = proj(c, 0, BZ, 0);
  let boards = "";
  for (let x = -40, i = 0; x < 40; x += 7, i++) {
    boards += poly(
      gp(c, [
        [x, BZ],
        [x + 6.95, BZ],
        [x + 6.95, BZ, 0.9],
        [x, BZ, 0.9],
      ]),
      `fill="${pick(led, i)}"`,
    );
  }
  let tiers = "";
  for (let y = boardTop - 40, k = 0; y > 60; y -= 34 + k * 6, k++) tiers += `<rect y="${n1(y)}" width="${W}" height="3" fill="#000" opacity=".35"/>`;
  const ball: Sphere = { cx: 1080, cy: 590, r: 104, rot: [r() * 6, r() * 6, r() * 6] };
  const defs =
    lin("sky", [
      [0, "#04070b"],
      [0.6, "#0c141d"],
      [1, "#1c2733"],
    ]) +
    lin("pitchShade", [
      [0, "#000", 0.15],
      [0.25, "#000", 0],
      [1, "#000", 0.45],
    ]) +
    lin("ledSheen", [
      [0, "#fff", 0.35],
      [0.45, "#fff", 0.05],
      [1, "#000", 0.25],
    ]) +
    lin("haze", [
      [0, "#9fb3c8", 0],
      [1, "#9fb3c8", 0.22],
    ]) +
    radU(
      "pitchSpot",
      [
        [0, "#fff", 0.2],
        [1, "#fff", 0],
      ],
      c.cx,
      430,
      650,
    ) +
    rad("flood", [
      [0, "#fffbe6", 0.85],
      [0.25, "#fff4cc", 0.35],
      [1, "#fff4cc", 0],
    ]) +
    texture("grass", "0.9 0.35", [0.05, 0.2, 0.05], 1.8, -0.9, 2) +
    `<pattern id="netP" width="9" height="9" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><path d="M0 0H9M0 0V9" stroke="#fff" stroke-width="1"/></pattern>` +
    blur("b2", 2) +
    blur("b4", 4) +
    blur("kShadowBlur", 12) +
    blur("ledGlow", 16, 8);
  const body =
    `<rect width="${W}" height="${n1(boardBot)}" fill="url(#sky)"/>` +
    `<g filter="url(#b2)">${bokeh(r, [0, 80, W, boardTop - 4], 1100, ["#d8d2c4", "#7b8794", "#c0392b", "#f5c400", "#2f6fb5", "#ffffff"], [2, 4.5], [0.1, 0.38])}${tiers}</g>` +
    `<rect y="${n1(boardTop - 160)}" width="${W}" height="160" fill="url(#haze)"/>` +
    `<g filter="url(#b4)">${floodlight(190, 26, 6, 3, "flood")}${floodlight(1420, 18, 6, 3, "flood")}${floodlight(800, 8, 4, 2, "flood")}</g>` +
    `<g filter="url(#ledGlow)" opacity=".6">${boards}</g>${boards}` +
    poly(
      gp(c, [
        [-40, BZ],
        [40, BZ],
        [40, BZ, 0.9],
        [-40, BZ, 0.9],
      ]),
      `fill="url(#ledSheen)"`,
    ) +
    `<g>${stripes}</g><rect y="${n1(boardBot)}" width="${W}" height="${n1(H - boardBot)}" fill="#000" filter="url(#grass)" opacity=".7"/>` +
    `<rect y="${n1(boardBot)}" width="${W}" height="${n1(H - boardBot)}" fill="url(#pitchShade)"/>` +
    `<rect y="${n1(boardBot)}" width="${W}" height="${n1(H - boardBot)}" fill="url(#pitchSpot)"/>` +
    `<g fill="#f4f7f2" opacity=".85">${lines}</g>` +
    `<g fill="url(#netP)" opacity=".6">${net}</g><g fill="#fff" opacity=".07">${net}</g>` +
    `<g fill="#000" opacity=".25" filter="url(#b2)">${poly(
      gp(c, [
        [-3.72, G],
        [3.72, G],
        [3.72, G - 1.2],
        [-3.72, G - 1.2],
      ]),
    )}</g>` +
    `<g fill="#fbfbfb">${post(-3.66)}${post(3.66)}${poly(
      gp(c, [
        [-3.72, G, 2.38],
        [3.72, G, 2.38],
        [3.72, G, 2.5],
        [-3.72, G, 2.5],
      ]),
    )}</g>` +
    shadow(ball.cx + 50, 752, 110, 17, 0.65) +
    `<g>${soccerBall("sb", ball)}</g>`;
  return frame(defs, body, { light: [c.cx, 140], lightOp: 0.22 });
}

function basquete(v: number, r: Rng): string {
  const paint = pick(["#1d4fb8", "#b8202f", "#5b2aa8", "#0f7a63"], v);
  const c: Cam = { cx: 800 + (r() - 0.5) * 120, hy: 350, f: 1550, h: 1.8 };
  const B = 20;
  const hz = B - 1.575;
  let planks = "";
  for (let x = -24; x < 24; x += 0.4) {
    const l = 0.9 + r() * 0.18;
    planks += poly(grect(c, x, 2.5, x + 0.4, B + 4), `fill="rgb(${Math.round(196 * l)},${Math.round(140 * l)},${Math.round(84 * l)})"`);
  }
  const lines = [
    gline(c, -7.5, B, 7.5, B),
    gline(c, -7.5, 2.5, -7.5, B),
    gline(c, 7.5, 2.5, 7.5, B),
    gline(c, -2.45, B - 5.8, -2.45, B),
    gline(c, 2.45, B - 5.8, 2.45, B),
    gline(c, -2.45, B - 5.8, 2.45, B - 5.8),
    garc(c, 0, B - 5.8, 1.8, 0, Math.PI * 2, 0.06, 60),
    gline(c, -6.6, B, -6.6, hz - 1.41),
    gline(c, 6.6, B, 6.6, hz - 1.41),
    garc(c, 0, hz, 6.75, deg(-77.9), deg(77.9), 0.08, 70),
    garc(c, 0, B - 14, 1.8, 0, Math.PI * 2, 0.08, 80),
  ].join("");
  const rim = (rr: number, y: number, n = 24) =>
    Array.from({ length: n }, (_, i) => proj(c, rr * Math.cos((i / n) * 2 * Math.PI), hz + rr * Math.sin((i / n) * 2 * Math.PI), y));
  const top = rim(0.23, 3.05);
  const bottom = rim(0.14, 2.62);
  const netLines = top
    .map(
      (p, i) =>
        `M${n1(p[0])} ${n1(p[1])}L${n1(bottom[(i + 2) % 24]![0])} ${n1(bottom[(i + 2) % 24]![1])}M${n1(p[0])} ${n1(p[1])}L${n1(bottom[(i + 22) % 24]![0])} ${n1(bottom[(i + 22) % 24]![1])}`,
    )
    .join("");
  const board = gp(c, [
    [-0.9, B - 1.2, 2.9],
    [0.9, B - 1.2, 2.9],
    [0.9, B - 1.2, 3.95],
    [-0.9, B - 1.2, 3.95],
  ]);
  const square = gp(c, [
    [-0.295, B - 1.2, 3.05],
    [0.295, B - 1.2, 3.05],
    [0.295, B - 1.2, 3.5],
    [-0.295, B - 1.2, 3.5],
  ]);
  const [, floorTop] = proj(c, 0, B + 4);
  const ball: Sphere = { cx: 470, cy: 560, r: 108, rot: [0.4 + r(), 0.3 + r(), r()] };
  const beams = [180, 560, 1040, 1420]
    .map((x, i) =>
      poly([
        [x - 30, 0],
        [x + 30, 0],
        [x + 260 - i * 90, floorTop],
        [x - 200 - i * 40, floorTop],
      ]),
    )
    .join("");
  const defs =
    lin("arena", [
      [0, "#04060c"],
      [0.7, "#111827"],
      [1, "#1f2937"],
    ]) +
    lin("floorShade", [
      [0, "#000", 0.35],
      [0.3, "#000", 0],
      [1, "#000", 0.5],
    ]) +
    radU(
      "gloss",
      [
        [0, "#fff", 0.4],
        [1, "#fff", 0],
      ],
      c.cx,
      560,
      420,
    ) +
    lin("beam", [
      [0, "#fff", 0.22],
      [1, "#fff", 0],
    ]) +
    lin("pad", [
      [0, paint],
      [0.2, "#111827"],
      [1, "#0b1220"],
    ]) +
    lin("ledSheen", [
      [0, "#fff", 0.45],
      [0.5, "#fff", 0],
      [1, "#000", 0.3],
    ]) +
    lin(
      "glass",
      [
        [0, "#dbeafe", 0.35],
        [1, "#dbeafe", 0.12],
      ],
      0,
      0,
      1,
      1,
    ) +
    texture("wood", "0.35 0.012", [0.3, 0.15, 0.05], 1.5, -0.72, 6, 3) +
    blur("b2", 2) +
    blur("b14", 14) +
    blur("b30", 30) +
    blur("kShadowBlur", 9) +
    blur("refl", 3, 14);
  const body =
    `<rect width="${W}" height="${n1(floorTop + 2)}" fill="url(#arena)"/>` +
    `<g filter="url(#b2)">${bokeh(r, [0, 120, W, floorTop - 20], 700, ["#cbd5e1", "#64748b", paint, "#f8fafc", "#f59e0b"], [2, 4], [0.1, 0.35])}</g>` +
    `<rect y="${n1(floorTop - 74)}" width="${W}" height="16" fill="${paint}" filter="url(#b2)"/><rect y="${n1(floorTop - 74)}" width="${W}" height="16" fill="url(#ledSheen)"/><rect y="${n1(floorTop - 90)}" width="${W}" height="48" fill="${paint}" opacity=".35" filter="url(#b14)"/>` +
    `<g filter="url(#b30)">${bokeh(r, [0, 0, W, 90], 10, ["#ffffff", "#fde68a"], [20, 45], [0.5, 0.9])}</g>` +
    `<g filter="url(#b14)" fill="url(#beam)">${beams}</g>` +
    `<g>${planks}</g><rect y="${n1(floorTop)}" width="${W}" height="${n1(H - floorTop)}" fill="#000" filter="url(#wood)" opacity=".4"/>` +
    poly(grect(c, -2.45, B - 5.8, 2.45, B), `fill="${paint}" opacity=".9"`) +
    `<g fill="#fff" opacity=".9">${lines}</g>` +
    `<g transform="translate(0 ${n1(2 * floorTop + 40)}) scale(1 -1)" opacity=".16" filter="url(#refl)">${poly(board, `fill="#fff"`)}${poly(top, `fill="none" stroke="#ff6a1f" stroke-width="4"`)}</g>` +
    `<rect y="${n1(floorTop)}" width="${W}" height="${n1(H - floorTop)}" fill="url(#gloss)"/>` +
    `<rect y="${n1(floorTop)}" width="${W}" height="${n1(H - floorTop)}" fill="url(#floorShade)"/>` +
    poly(
      gp(c, [
        [-0.7, B + 1.6, 0],
        [0.7, B + 1.6, 0],
        [0.7, B + 1.6, 0.9],
        [0.7, B + 3.2, 1.1],
        [-0.7, B + 3.2, 1.1],
        [-0.7, B + 1.6, 0.9],
      ]),
      `fill="url(#pad)"`,
    ) +
    poly(
      gp(c, [
        [-0.11, B + 2, 0.9],
        [0.11, B + 2, 0.9],
        [0.11, B + 2, 3.7],
        [-0.11, B + 2, 3.7],
      ]),
      `fill="#2b3442"`,
    ) +
    poly(
      gp(c, [
        [-0.08, B - 1.1, 3.35],
        [0.08, B - 1.1, 3.35],
        [0.08, B + 2, 3.75],
        [-0.08, B + 2, 3.75],
      ]),
      `fill="#1f2937"`,
    ) +
    poly(board, `fill="url(#glass)" stroke="#f8fafc" stroke-width="4"`) +
    poly(square, `fill="none" stroke="#f8fafc" stroke-width="3"`) +
    `<path d="${netLines}" stroke="#fff" stroke-opacity=".85" stroke-width="1.6"/>` +
    poly(top, `fill="none" stroke="#ff5a1f" stroke-width="5"`) +
    shadow(ball.cx + 30, 735, 120, 18, 0.6) +
    `<g opacity=".22" transform="translate(0 1480) scale(1 -1)" filter="url(#refl)">${basketball("bbr", ball)}</g>` +
    basketball("bb", ball);
  return frame(defs, body, { light: [c.cx, 160], lightOp: 0.2 });
}

function volei(v: number, r: Rng): string {
  const sky = pick(
    [
      ["#2f7fd6", "#9fd2f5", "#ffe9b8"],
      ["#3a3f8f", "#f08a5d", "#ffd27f"],
      ["#1e6fc0", "#7cc4ee", "#f7f3d9"],
    ],
    v,
  );
  const ballColors = pick<[string, string, string]>(
    [
      ["#f5c400", "#1c4fc4", "#ffffff"],
      ["#ffd400", "#0a8bd6", "#f7f7f7"],
      ["#ffffff", "#e63946", "#1d4ed8"],
    ],
    v,
  );
  const c: Cam = { cx: 800 + (r() - 0.5) * 100, hy: 385, f: 1400, h: 1.6 };
  const N = 18;
  const sun: Pt = [1180, 190];
  const [, sea1] = proj(c, 0, 300);
  const [, sandTop] = proj(c, 0, 70);
  const netTop = 2.43;
  const netRect = gp(c, [
    [-4.5, N, netTop - 1],
    [4.5, N, netTop - 1],
    [4.5, N, netTop],
    [-4.5, N, netTop],
  ]);
  const tape = (y0: number, y1: number) =>
    poly(
      gp(c, [
        [-4.5, N, y0],
        [4.5, N, y0],
        [4.5, N, y1],
        [-4.5, N, y1],
      ]),
    );
  const pole = (x: number) =>
    poly(
      gp(c, [
        [x - 0.05, N],
        [x + 0.05, N],
        [x + 0.05, N, 2.6],
        [x - 0.05, N, 2.6],
      ]),
    );
  const ant = (x: number) =>
    Array.from({ length: 8 }, (_, i) =>
      poly(
        gp(c, [
          [x - 0.02, N, netTop - 0.1 + i * 0.11],
          [x + 0.02, N, netTop - 0.1 + i * 0.11],
          [x + 0.02, N, netTop + i * 0.11],
          [x - 0.02, N, netTop + i * 0.11],
        ]),
        `fill="${i % 2 ? "#fff" : "#e63946"}"`,
      ),
    ).join("");
  const lines = [gline(c, -4, 10, 4, 10, 0.06), gline(c, -4, 26, 4, 26, 0.06), gline(c, -4, 10, -4, 26, 0.06), gline(c, 4, 10, 4, 26, 0.06)].join("");
  let prints = "";
  for (let i = 0; i < 70; i++) {
    const x = (r() - 0.5) * 16;
    const z = 5 + r() * 30;
    const s = c.f / z;
    for (const dx of [-0.12, 0.12]) {
      const [px, py] = proj(c, x + dx, z + dx * r());
      prints += `<ellipse cx="${n1(px)}" cy="${n1(py - 0.012 * s)}" rx="${n1(0.07 * s)}" ry="${n1(0.02 * s)}" fill="#fff3d6" opacity=".35"/><ellipse cx="${n1(px)}" cy="${n1(py)}" rx="${n1(0.07 * s)}" ry="${n1(0.022 * s)}" fill="url(#print)"/>`;
    }
  }
  const ball: Sphere = { cx: 560, cy: 205, r: 72, rot: [r() * 6, r() * 6, r() * 6] };
  const hill = (x0: number, x1: number, hgt: number) =>
    `M${x0} ${n1(sea1 + 1)} C ${n1(x0 + (x1 - x0) * 0.2)} ${n1(sea1 - hgt * 0.8)} ${n1(x0 + (x1 - x0) * 0.35)} ${n1(sea1 - hgt)} ${n1(x0 + (x1 - x0) * 0.5)} ${n1(sea1 - hgt * 0.9)} C ${n1(x0 + (x1 - x0) * 0.7)} ${n1(sea1 - hgt * 0.75)} ${n1(x0 + (x1 - x0) * 0.85)} ${n1(sea1 - hgt * 0.2)} ${x1} ${n1(sea1 + 1)}Z`;
  const defs =
    lin("sky", [
      [0, sky[0]!],
      [0.75, sky[1]!],
      [1, sky[2]!],
    ]) +
    radU(
      "sun",
      [
        [0, "#fffbe8", 1],
        [0.08, "#fff3c4", 0.9],
        [0.3, "#ffe29a", 0.35],
        [1, "#ffe29a", 0],
      ],
      sun[0],
      sun[1],
      520,
    ) +
    lin("sea", [
      [0, "#1b6f99"],
      [1, "#2b9cc0"],
    ]) +
    lin("sand", [
      [0, "#f0d9ad"],
      [0.4, "#e6c690"],
      [1, "#c99d62"],
    ]) +
    lin("hill", [
      [0, "#4f6f7d"],
      [1, sky[1]!],
    ]) +
    lin(
      "poleG",
      [
        [0, "#9aa5b1"],
        [0.5, "#f1f5f9"],
        [1, "#64748b"],
      ],
      0,
      0,
      1,
      0,
    ) +
    rad("print", [
      [0, "#7a5a32", 0.5],
      [1, "#7a5a32", 0],
    ]) +
    texture("dunes", "0.003 0.012", [0.55, 0.4, 0.22], 0.9, -0.4, 21, 3) +
    `<pattern id="mesh" width="8" height="8" patternUnits="userSpaceOnUse"><path d="M0 0H8M0 0V8" stroke="#0b0b0b" stroke-width="1.3" fill="none"/></pattern>` +
    texture("grainSand", 0.75, [0.45, 0.3, 0.15], 2, -1.0, 8, 3) +
    texture("grainSand2", 0.5, [1, 0.95, 0.85], 1.6, -0.85, 2, 2) +
    blur("b3", 3) +
    blur("kShadowBlur", 7) +
    blur("b1", 1.2);
  const body =
    `<rect width="${W}" height="${n1(sea1 + 1)}" fill="url(#sky)"/>` +
    `<rect width="${W}" height="${n1(sea1 + 1)}" fill="url(#sun)"/>` +
    `<g filter="url(#b1)"><path d="${hill(-120, 640, 95)}" fill="url(#hill)" opacity=".55"/><path d="${hill(-60, 380, 55)}" fill="url(#hill)" opacity=".8"/></g>` +
    `<rect y="${n1(sea1)}" width="${W}" height="${n1(sandTop - sea1 + 1)}" fill="url(#sea)"/>` +
    `<g filter="url(#b1)">${bokeh(r, [sun[0] - 420, sea1 + 2, sun[0] + 420, sandTop], 120, ["#fffbe8"], [1, 2.5], [0.3, 0.9])}</g>` +
    `<rect y="${n1(sandTop)}" width="${W}" height="${n1(H - sandTop)}" fill="url(#sand)"/>` +
    `<rect y="${n1(sandTop)}" width="${W}" height="${n1(H - sandTop)}" fill="#000" filter="url(#grainSand)"/>` +
    `<rect y="${n1(sandTop)}" width="${W}" height="${n1(H - sandTop)}" fill="#000" filter="url(#grainSand2)"/>` +
    `<rect y="${n1(sandTop)}" width="${W}" height="${n1(H - sandTop)}" fill="#000" filter="url(#dunes)"/>` +
    `<rect y="${n1(sandTop)}" width="${W}" height="${n1(H - sandTop)}" fill="${sky[2]}" opacity=".25" style="mix-blend-mode:multiply"/>` +
    prints +
    `<g fill="#1f5fd1" opacity=".9">${lines}</g>` +
    `<g fill="#000" opacity=".2" filter="url(#b3)">${poly(
      gp(c, [
        [-4.5, N],
        [4.5, N],
        [4.5, N + 1.6],
        [-4.5, N + 1.6],
      ]),
    )}</g>` +
    `<path d="M${pts([proj(c, -4.55, N, 2.5), proj(c, -5.8, N + 0.4)])}M${pts([proj(c, 4.55, N, 2.5), proj(c, 5.8, N + 0.4)])}" stroke="#e2e8f0" stroke-width="1.5"/>` +
    `<g fill="url(#poleG)">${pole(-4.55)}${pole(4.55)}</g>` +
    poly(netRect, `fill="url(#mesh)" opacity=".75"`) +
    `<g fill="#f8fafc">${tape(netTop - 0.07, netTop)}</g><g fill="#1f5fd1">${tape(netTop - 1, netTop - 0.95)}</g>` +
    ant(-4) +
    ant(4) +
    shadow(ball.cx + 60, proj(c, -2, 13)[1], 60, 10, 0.35) +
    volleyball("vb", ball, ballColors);
  return frame(defs, body, { light: sun, lightOp: 0.3, vignette: 0.5 });
}

function tenis(v: number, r: Rng): string {
  const clay = pick(
    [
      ["#c4592f", "#b04a24", "#8f3a1c"],
      ["#cf6638", "#b9542b", "#94401f"],
      ["#bd5230", "#a84525", "#86351a"],
    ],
    v,
  );
  const wall = pick(["#0f3d2e", "#123a5c", "#2b2f36"], v);
  const c: Cam = { cx: 800 + (r() - 0.5) * 60, hy: 90, f: 1250, h: 7 };
  const Z0 = 14;
  const net = Z0 + 11.885;
  const Z1 = Z0 + 23.77;
  const WALL = Z1 + 6.5;
  const L = 0.05;
  const lines = [
    gline(c, -5.485, Z0, 5.485, Z0, L * 2),
    gline(c, -5.485, Z1, 5.485, Z1, L * 2),
    gline(c, -5.485, Z0, -5.485, Z1, L),
    gline(c, 5.485, Z0, 5.485, Z1, L),
    gline(c, -4.115, Z0, -4.115, Z1, L),
    gline(c, 4.115, Z0, 4.115, Z1, L),
    gline(c, -4.115, net - 6.4, 4.115, net - 6.4, L),
    gline(c, -4.115, net + 6.4, 4.115, net + 6.4, L),
    gline(c, 0, net - 6.4, 0, net + 6.4, L),
    gline(c, 0, Z0, 0, Z0 + 0.1, L),
    gline(c, 0, Z1 - 0.1, 0, Z1, L),
  ].join("");
  const netPoly = gp(c, [
    [-6.4, net],
    [6.4, net],
    [6.4, net, 1.07],
    [0, net, 0.914],
    [-6.4, net, 1.07],
  ]);
  const tape = gp(c, [
    [-6.4, net, 1.0],
    [0, net, 0.85],
    [6.4, net, 1.0],
    [6.4, net, 1.07],
    [0, net, 0.914],
    [-6.4, net, 1.07],
  ]);
  const post = (x: number) =>
    poly(
      gp(c, [
        [x - 0.05, net],
        [x + 0.05, net],
        [x + 0.05, net, 1.07],
        [x - 0.05, net, 1.07],
      ]),
    );
  const [, wallBot] = proj(c, 0, WALL);
  const [, wallTop] = proj(c, 0, WALL, 4);
  let sweeps = "";
  for (let i = 0; i < 26; i++) {
    const [x, y] = proj(c, (r() - 0.5) * 16, Z0 - 3 + r() * 30);
    const s = c.f / (Z0 + 10);
    sweeps += `<path d="M${n1(x)} ${n1(y)}q${n1(s * (1 + r()))} ${n1(-s * 0.3 * r())} ${n1(s * (2 + r() * 2))} ${n1(s * 0.1)}" stroke="${r() > 0.5 ? "#e5875a" : "#7a2f14"}" stroke-opacity=".28" stroke-width="${n1(2 + r() * 4)}" fill="none" stroke-linecap="round"/>`;
  }
  const ball: Sphere = { cx: 1140, cy: 470, r: 64, rot: [r() * 6, r() * 6, r() * 6] };
  const defs =
    lin("stand", [
      [0, "#07090c"],
      [1, "#161b22"],
    ]) +
    lin("wall", [
      [0, wall],
      [1, "#0a1a14"],
    ]) +
    lin("clay", [
      [0, clay[0]!],
      [0.5, clay[1]!],
      [1, clay[2]!],
    ]) +
    radU(
      "claySpot",
      [
        [0, "#ffd7b0", 0.3],
        [1, "#ffd7b0", 0],
      ],
      c.cx,
      360,
      700,
    ) +
    `<pattern id="mesh" width="5" height="5" patternUnits="userSpaceOnUse"><path d="M0 0H5M0 0V5" stroke="#111" stroke-width="1"/></pattern>` +
    texture("claytex", 0.8, [0.35, 0.12, 0.04], 1.6, -0.8, 4, 2) +
    texture("claytex2", "0.006 0.03", [0.95, 0.6, 0.4], 1, -0.45, 12, 3) +
    blur("b2", 2) +
    blur("b20", 20) +
    blur("kShadowBlur", 8) +
    blur("b1", 1);
  const body =
    `<rect width="${W}" height="${n1(wallTop + 2)}" fill="url(#stand)"/>` +
    `<g filter="url(#b2)">${bokeh(r, [0, 20, W, wallTop - 6], 550, ["#e2e8f0", "#94a3b8", "#f8fafc", "#fbbf24", "#0ea5e9"], [2, 4], [0.12, 0.4])}</g>` +
    `<g filter="url(#b20)">${bokeh(r, [0, 0, W, 40], 8, ["#fff"], [20, 40], [0.4, 0.8])}</g>` +
    `<rect y="${n1(wallTop)}" width="${W}" height="${n1(wallBot - wallTop + 1)}" fill="url(#wall)"/>` +
    `<rect y="${n1(wallTop)}" width="${W}" height="3" fill="#fff" opacity=".25"/>` +
    Array.from(
      { length: 5 },
      (_, i) =>
        `<rect x="${90 + i * 300}" y="${n1(wallTop + (wallBot - wallTop) * 0.3)}" width="180" height="${n1((wallBot - wallTop) * 0.4)}" rx="6" fill="#fff" opacity=".08"/>`,
    ).join("") +
    `<rect y="${n1(wallBot)}" width="${W}" height="${n1(H - wallBot)}" fill="url(#clay)"/>` +
    `<rect y="${n1(wallBot)}" width="${W}" height="${n1(H - wallBot)}" fill="#000" filter="url(#claytex)"/>` +
    `<rect y="${n1(wallBot)}" width="${W}" height="${n1(H - wallBot)}" fill="#000" filter="url(#claytex2)"/>` +
    `<g filter="url(#b1)">${sweeps}</g>` +
    `<g fill="#f6efe6" opacity=".9">${lines}</g>` +
    `<g fill="#000" opacity=".25" filter="url(#b2)">${poly(
      gp(c, [
        [-6.4, net],
        [6.4, net],
        [6.4, net + 1.3],
        [-6.4, net + 1.3],
      ]),
    )}</g>` +
    poly(netPoly, `fill="url(#mesh)" opacity=".8"`) +
    poly(tape, `fill="#fafafa"`) +
    `<g fill="#2d3748">${post(-6.4)}${post(6.4)}</g>` +
    `<rect y="${n1(wallBot)}" width="${W}" height="${n1(H - wallBot)}" fill="url(#claySpot)"/>` +
    shadow(ball.cx + 60, 610, 70, 14, 0.45) +
    tennisBall("tb", ball);
  return frame(defs, body, { light: [c.cx, 260], lightOp: 0.18 });
}

function natacao(v: number, r: Rng): string {
  const water = pick(
    [
      ["#0a5ea8", "#0b86c9", "#26b3dc"],
      ["#0b4f93", "#0f79b8", "#38bde0"],
      ["#075985", "#0891b2", "#2dd4bf"],
    ],
    v,
  );
  const ropes = pick(
    [
      ["#e63946", "#1d4ed8", "#f5c400"],
      ["#16a34a", "#1d4ed8", "#f5c400"],
      ["#e63946", "#f8fafc", "#1d4ed8"],
    ],
    v,
  );
  const lane = 200;
  const wallX = 1380 + (r() - 0.5) * 80;
  let floor = "";
  let rope = "";
  const ph = [r() * 6, r() * 6, r() * 6];
  for (let k = -2; k < 7; k++) {
    const y = k * lane;
    const yc = y + lane / 2;
    const t: Pt[] = [
      [-200, yc - 16],
      [wallX - 210, yc - 16],
      [wallX - 210, yc - 60],
      [wallX - 178, yc - 60],
      [wallX - 178, yc + 60],
      [wallX - 210, yc + 60],
      [wallX - 210, yc + 16],
      [-200, yc + 16],
    ];
    floor += poly(
      t.flatMap(([x0, y0], i) => {
        const [x1, y1] = t[(i + 1) % t.length]!;
        const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / 18));
        return Array.from({ length: n }, (_, j): Pt => {
          const x = x0 + ((x1 - x0) * j) / n;
          const yy = y0 + ((y1 - y0) * j) / n;
          return [x + 3 * Math.sin(yy / 19 + x / 53 + ph[0]!), yy + 4 * Math.sin(x / 41 + ph[1]!) + 2.5 * Math.sin(x / 17 + yy / 29 + ph[2]!)];
        });
      }),
    );
    for (let x = wallX - 14, i = 0; x > -420; x -= 26, i++) {
      const col = i < 12 ? ropes[0]! : Math.floor(i / 4) % 2 ? ropes[1]! : ropes[2]!;
      rope += `<ellipse cx="${n1(x)}" cy="${y}" rx="13" ry="11" fill="${col}"/>`;
    }
  }
  const defs =
    lin(
      "water",
      [
        [0, water[0]!],
        [0.55, water[1]!],
        [1, water[2]!],
      ],
      0,
      0,
      1,
      1,
    ) +
    lin(
      "deck",
      [
        [0, "#cfd8dc"],
        [1, "#f1f5f9"],
      ],
      0,
      0,
      1,
      0,
    ) +
    lin(
      "block",
      [
        [0, "#f8fafc"],
        [1, "#94a3b8"],
      ],
      0,
      0,
      1,
      1,
    ) +
    rad(
      "bead",
      [
        [0, "#fff", 0.7],
        [0.35, "#fff", 0],
        [0.8, "#000", 0.2],
        [1, "#000", 0.55],
      ],
      0.5,
      0.5,
      0.5,
      0.35,
      0.3,
    ) +
    `<pattern id="tiles" width="40" height="40" patternUnits="userSpaceOnUse"><path d="M0 0H40M0 0V40" stroke="#fff" stroke-opacity=".1" stroke-width="2"/></pattern>` +
    blur("soft", 1.5) +
    `<filter id="caustics" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB"><feTurbulence type="turbulence" baseFrequency="0.009 0.013" numOctaves="2" seed="${v + 3}"/><feColorMatrix values="0 0 0 0 0.85  0 0 0 0 0.97  0 0 0 0 1  -5 0 0 0 1.1"/><feComponentTransfer><feFuncA type="gamma" exponent="2.2" amplitude="1" offset="0"/></feComponentTransfer><feGaussianBlur stdDeviation="2"/></filter>` +
    `<filter id="ripple" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB"><feTurbulence type="fractalNoise" baseFrequency="0.004 0.02" numOctaves="3" seed="${v + 9}"/><feColorMatrix values="0 0 0 0 1  0 0 0 0 1  0 0 0 0 1  2.4 0 0 0 -1.35"/></filter>` +
    blur("ropeShadow", 7);
  const body =
    `<g transform="rotate(-8 800 450)">` +
    `<rect x="-150" y="-200" width="1900" height="1300" fill="url(#water)"/>` +
    `<rect x="-150" y="-200" width="1900" height="1300" fill="url(#tiles)"/><g fill="#0a2455" opacity=".7" filter="url(#soft)">${floor}</g>` +
    `<rect x="-150" y="-200" width="1900" height="1300" fill="#000" filter="url(#caustics)" opacity=".4"/>` +
    `<rect x="-150" y="-200" width="1900" height="1300" fill="#000" filter="url(#ripple)" opacity=".45"/>` +
    `<g transform="translate(12 18)" filter="url(#ropeShadow)" opacity=".4" fill="#001a33">${rope.replaceAll(/ fill="[^"]+"/g, "")}</g>` +
    rope +
    `<g fill="url(#bead)">${rope.replaceAll(/ fill="[^"]+"/g, "")}</g>` +
    `<rect x="${n1(wallX)}" y="-200" width="40" height="1300" fill="#0b1f33" opacity=".75"/>` +
    `<rect x="${n1(wallX + 40)}" y="-200" width="700" height="1300" fill="url(#deck)"/>` +
    `<rect x="${n1(wallX + 40)}" y="-200" width="14" height="1300" fill="#fff"/>` +
    Array.from({ length: 8 }, (_, k) => {
      const y = (k - 2) * lane + lane / 2;
      return (
        `<rect x="${n1(wallX + 78)}" y="${y - 44}" width="130" height="100" rx="8" fill="#000" opacity=".3" filter="url(#ropeShadow)"/>` +
        `<rect x="${n1(wallX + 62)}" y="${y - 50}" width="126" height="100" rx="8" fill="url(#block)"/><rect x="${n1(wallX + 70)}" y="${y - 42}" width="100" height="84" rx="5" fill="#1e293b" opacity=".35"/><rect x="${n1(wallX + 62)}" y="${y - 50}" width="12" height="100" fill="${ropes[0]}"/>`
      );
    }).join("") +
    `</g>`;
  return frame(defs, body, { light: [520, 160], lightOp: 0.3, vignette: 0.55 });
}

function corrida(v: number, r: Rng): string {
  const track = pick(
    [
      ["#cf5a40", "#a8412c"],
      ["#b94a33", "#8f3322"],
      ["#3567c0", "#244b8f"],
    ],
    v,
  );
  const sky = pick(
    [
      ["#0c1a33", "#2f4f7f", "#f2b880"],
      ["#0f2747", "#4a78ad", "#cfe3f3"],
      ["#1a1030", "#5b3a78", "#f59e6b"],
    ],
    v,
  );
  const wall = pick(["#123a8f", "#0f5132", "#6b1d1d"], v);
  const c: Cam = { cx: 560 + (r() - 0.5) * 80, hy: 330, f: 1400, h: 1.1 };
  const bend = (z: number) => (z > 22 ? -0.018 * (z - 22) ** 2 : 0);
  const zs = Array.from({ length: 70 }, (_, i) => 2.2 * (90 / 2.2) ** (i / 69));
  const at = (x: number, z: number, y = 0): Pt => proj(c, x + bend(z), z, y);
  const strip = (x0: number, x1: number, y0 = 0, y1 = 0) => [...zs.map((z) => at(x0, z, y0)), ...zs.map((z) => at(x1, z, y1)).reverse()];
  const X0 = -2.4;
  const X1 = X0 + 9.76;
  let lanes = "";
  for (let i = 0; i <= 8; i++) lanes += poly(strip(X0 + i * 1.22 - 0.025, X0 + i * 1.22 + 0.025));
  const hurdle = (x: number, z: number) => {
    const [l, t] = proj(c, x - 0.55, z, 1.0);
    const [rr, b] = proj(c, x + 0.55, z, 0.92);
    const s = c.f / z;
    const leg = (xx: number) => `M${pts([proj(c, xx, z, 0), proj(c, xx, z, 0.95)])}M${pts([proj(c, xx, z, 0), proj(c, xx, z - 0.7, 0)])}`;
    const stripes = [0, 1, 2, 3, 4]
      .map(
        (k) => `<rect x="${n1(l + ((rr - l) * (2 * k + 0.5)) / 10)}" y="${n1(t)}" width="${n1((rr - l) / 10)}" height="${n1(b - t)}" fill="#111"/>`,
      )
      .join("");
    return `<path d="${leg(x - 0.52)}${leg(x + 0.52)}" stroke="#cbd5e1" stroke-width="${n1(Math.max(1.5, s * 0.035))}" fill="none"/><rect x="${n1(l)}" y="${n1(t)}" width="${n1(rr - l)}" height="${n1(b - t)}" fill="#f8fafc"/>${stripes}`;
  };
  let hurdles = "";
  for (let i = 7; i >= 0; i--) hurdles += hurdle(X0 + 0.61 + i * 1.22, 17);
  const [, standBase] = proj(c, 0, 150);
  let boards = "";
  for (let i = 0; i < zs.length - 1; i += 4) {
    const seg = zs.slice(i, i + 5);
    const x = X1 + 2.2;
    boards += poly([...seg.map((z) => at(x, z)), ...seg.map((z) => at(x, z, 0.9)).reverse()], `fill="${pick([wall, wall, "#f5c400"], i / 4)}"`);
  }
  boards += poly(strip(X1 + 2.2, X1 + 2.2, 0, 0.9), `fill="url(#wallG)"`);
  const roof = 118;
  const lamps = Array.from({ length: 26 }, (_, i) => `<circle cx="${i * 64 + 16}" cy="${roof + 10 + Math.sin(i) * 2}" r="4"/>`).join("");
  let tiers = "";
  for (let y = standBase - 26, k = 0; y > roof + 30; y -= 26 + k * 4, k++)
    tiers += `<rect y="${n1(y)}" width="${W}" height="3" fill="#000" opacity=".4"/>`;
  const defs =
    lin("sky", [
      [0, sky[0]!],
      [0.6, sky[1]!],
      [1, sky[2]!],
    ]) +
    lin("track", [
      [0, track[0]!],
      [1, track[1]!],
    ]) +
    lin("infield", [
      [0, "#2f7a36"],
      [1, "#174d1d"],
    ]) +
    lin("wallG", [
      [0, "#fff", 0.3],
      [0.5, "#fff", 0],
      [1, "#000", 0.35],
    ]) +
    lin("shade", [
      [0, "#000", 0],
      [0.5, "#000", 0.05],
      [1, "#000", 0.5],
    ]) +
    lin("stand", [
      [0, "#0b1220"],
      [1, "#1e293b"],
    ]) +
    lin("haze", [
      [0, sky[2]!, 0],
      [1, sky[2]!, 0.28],
    ]) +
    texture("tartan", 0.9, [0.25, 0.05, 0.02], 2, -1, 7, 2) +
    texture("tartan2", 0.6, [1, 0.8, 0.7], 1.4, -0.8, 3, 2) +
    texture("turf", "0.6 0.15", [0.1, 0.3, 0.08], 1.8, -0.9, 5, 2) +
    blur("b2", 2) +
    blur("b1", 0.8) +
    blur("b8", 8);
  const body =
    `<rect width="${W}" height="${roof + 20}" fill="url(#sky)"/>` +
    `<rect y="${roof}" width="${W}" height="${n1(standBase - roof + 2)}" fill="url(#stand)"/>` +
    `<g filter="url(#b2)">${bokeh(r, [0, roof + 26, W, standBase - 4], 900, ["#e5e7eb", "#9ca3af", "#f59e0b", "#ef4444", "#3b82f6"], [2, 3.5], [0.12, 0.45])}${tiers}</g>` +
    `<rect y="${n1(standBase - 90)}" width="${W}" height="90" fill="url(#haze)"/>` +
    `<rect y="${roof - 6}" width="${W}" height="14" fill="#05070b"/>` +
    `<g filter="url(#b8)" fill="#fff6da">${lamps}${lamps}</g><g fill="#fffdf5">${lamps}</g>` +
    `<rect y="${n1(standBase)}" width="${W}" height="${n1(H - standBase)}" fill="url(#infield)"/>` +
    `<rect y="${n1(standBase)}" width="${W}" height="${n1(H - standBase)}" fill="#000" filter="url(#turf)"/>` +
    poly(strip(X1, 80), `fill="${track[1]}"`) +
    poly(strip(X0, X1), `fill="url(#track)"`) +
    poly(strip(X0, X1 + 2), `fill="#000" filter="url(#tartan)"`) +
    poly(strip(X0, X1 + 2), `fill="#000" filter="url(#tartan2)"`) +
    poly(strip(X0 - 0.12, X0), `fill="#e5e7eb"`) +
    `<g fill="#fafafa" opacity=".92">${lanes}</g>` +
    boards +
    poly(strip(X1 + 2.2, X1 + 2.2, 0.85, 0.9), `fill="#fff" opacity=".55"`) +
    `<rect y="${n1(standBase)}" width="${W}" height="${n1(H - standBase)}" fill="url(#shade)"/>` +
    `<g filter="url(#b1)">${hurdles}</g>`;
  return frame(defs, body, { light: [1150, 160], lightOp: 0.28 });
}

function automobilismo(v: number, r: Rng): string {
  const [body1, body2, accent] = pick(
    [
      ["#e10600", "#8a0400", "#ffffff"],
      ["#00a19b", "#005c58", "#111111"],
      ["#ff8000", "#b35900", "#1f4fd1"],
      ["#1e41ff", "#0a1f8f", "#f5c400"],
    ],
    v,
  );
  const G = 732;
  const compound = pick(["#f5c400", "#e10600", "#f8fafc"], v);
  const wheel = (x: number) =>
    `<g transform="translate(${x} ${G - 70})"><circle r="70" fill="url(#tyre)"/><circle r="57" fill="none" stroke="${compound}" stroke-width="4" opacity=".9" filter="url(#spin)"/><circle r="48" fill="url(#rim)"/>` +
    `<g filter="url(#spin)">${Array.from({ length: 10 }, (_, i) => `<rect x="-3" y="-44" width="6" height="44" fill="#94a3b8" opacity=".3" transform="rotate(${i * 36 + r() * 10})"/>`).join("")}</g><circle r="12" fill="#0b0d10"/><path d="M-60 -30 A 67 67 0 0 1 20 -64" stroke="#fff" stroke-opacity=".18" stroke-width="4" fill="none"/></g>`;
  const car =
    `<path d="M462 662 L580 636 M462 662 L580 690 M1160 662 L1040 632 M1160 662 L1040 684 M1160 662 L1060 600" stroke="#111" stroke-width="7"/>` +
    `<path d="M316 498 L414 498 L420 520 L420 640 L384 664 L316 664Z" fill="url(#dark)"/><path d="M300 490 L432 494 L432 516 L300 512Z" fill="${body1}"/><path d="M306 520 L428 522 L428 530 L306 528Z" fill="#111"/><path d="M330 612 L420 612 L420 626 L330 626Z" fill="#15181d"/>` +
    `<circle cx="915" cy="568" r="27" fill="url(#helmet)"/><path d="M902 560 h38 v10 h-38z" fill="#0b0f1a" opacity=".9"/>` +
    `<path d="M400 692 L400 650 C 470 630 560 600 680 572 L760 542 L790 500 L842 498 L858 540 L872 590 L1000 590 L1060 598 C 1150 612 1260 640 1345 676 L1352 692 L1240 696 L1060 692 L980 708 L560 708 L440 702Z" fill="url(#body)"/>` +
    `<path d="M400 692 L400 650 C 470 630 560 600 680 572 L760 542 L790 500 L842 498 L858 540 L872 590 L1000 590 L1060 598 C 1150 612 1260 640 1345 676 L1352 692 L1240 696 L1060 692 L980 708 L560 708 L440 702Z" fill="url(#sheen)"/>` +
    `<path d="M1000 600 C 1010 640 1004 688 992 704 L600 706 C 650 664 720 636 800 626 L1000 600Z" fill="${body2}" opacity=".65"/><ellipse cx="992" cy="628" rx="10" ry="22" fill="#07090c"/>` +
    `<path d="M470 650 C 600 616 770 594 1000 606 C 1120 614 1240 642 1330 684" stroke="${accent}" stroke-width="8" fill="none"/>` +
    `<path d="M430 640 C 520 618 640 588 760 552 M1062 604 C 1160 618 1260 644 1340 680" stroke="#fff" stroke-opacity=".55" stroke-width="2.5" fill="none"/>` +
    `<path d="M1004 594 C 990 564 962 548 920 546 L850 550" stroke="#15181d" stroke-width="10" fill="none" stroke-linecap="round"/><path d="M986 592 L996 562" stroke="#15181d" stroke-width="8"/>` +
    `<path d="M380 714 L1236 714 L1250 704 L1250 724 L380 724Z" fill="#0b0d10"/><path d="M372 684 L420 684 L440 716 L372 716Z" fill="#111"/>` +
    `<path d="M1236 702 L1384 702 L1384 716 L1236 716Z" fill="${body1}"/><path d="M1250 698 C 1300 688 1340 684 1378 684 L1378 692 C 1340 692 1300 696 1250 704Z" fill="#15181d"/><path d="M1362 668 L1388 668 L1388 720 L1362 720Z" fill="url(#dark)"/>` +
    wheel(462) +
    wheel(1160);
  const kerb = Array.from(
    { length: 22 },
    (_, i) => `<rect x="${i * 80 - 20}" y="478" width="80" height="34" fill="${i % 2 ? "#f8fafc" : "#d91e18"}"/>`,
  ).join("");
  const defs =
    lin("sky", [
      [0, "#9cc3e6"],
      [1, "#e7eef5"],
    ]) +
    lin("asphalt", [
      [0, "#4b5058"],
      [0.4, "#33373d"],
      [1, "#1c1f23"],
    ]) +
    lin("body", [
      [0, body1],
      [0.6, body1],
      [1, body2],
    ]) +
    lin("sheen", [
      [0, "#fff", 0.35],
      [0.3, "#fff", 0.05],
      [0.6, "#000", 0],
      [1, "#000", 0.35],
    ]) +
    lin("dark", [
      [0, "#2a2f36"],
      [1, "#0b0d10"],
    ]) +
    rad("tyre", [
      [0.6, "#2a2a2a"],
      [0.9, "#111"],
      [1, "#050505"],
    ]) +
    rad("rim", [
      [0, "#3a414c"],
      [0.75, "#1b2028"],
      [1, "#0b0e12"],
    ]) +
    rad(
      "helmet",
      [
        [0, "#fff"],
        [0.35, accent],
        [1, body2],
      ],
      0.5,
      0.5,
      0.6,
      0.35,
      0.3,
    ) +
    `<filter id="pan" x="-10%" y="-50%" width="120%" height="200%"><feGaussianBlur stdDeviation="38 1.5"/></filter>` +
    `<filter id="panLight" x="-10%" y="-50%" width="120%" height="200%"><feGaussianBlur stdDeviation="10 0.6"/></filter>` +
    `<filter id="spin" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="3"/></filter>` +
    `<filter id="streaks" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB"><feTurbulence type="fractalNoise" baseFrequency="0.0015 0.35" numOctaves="3" seed="4"/><feColorMatrix values="0 0 0 0 0.8 0 0 0 0 0.8 0 0 0 0 0.8 1.6 0 0 0 -0.8"/><feComposite in2="SourceAlpha" operator="in"/></filter>` +
    blur("kShadowBlur", 16, 6) +
    blur("b4", 4);
  const crowd = bokeh(
    r,
    [-150, 150, W + 150, 330],
    260,
    ["#e2e8f0", "#b91c1c", "#1e3a8a", "#d4a017", "#0f172a", "#475569", "#334155"],
    [8, 24],
    [0.35, 0.8],
  );
  const bodyS =
    `<rect width="${W}" height="${H}" fill="url(#asphalt)"/><g transform="translate(0 -90)">` +
    `<rect y="60" width="${W}" height="130" fill="url(#sky)"/>` +
    `<g filter="url(#pan)"><rect x="-200" y="130" width="${W + 400}" height="220" fill="#1f2937"/>${crowd}` +
    `<rect x="-200" y="330" width="${W + 400}" height="60" fill="#64748b"/><rect x="-200" y="352" width="${W + 400}" height="10" fill="#cbd5e1"/>` +
    Array.from(
      { length: 11 },
      (_, i) =>
        `<rect x="${i * 190 - 200 + r() * 40}" y="392" width="150" height="36" fill="${pick(["#e10600", "#1e3a8a", "#f5c400", "#f8fafc"], i)}"/>`,
    ).join("") +
    `<rect x="-200" y="428" width="${W + 400}" height="50" fill="#3f7a3a"/></g>` +
    `<g filter="url(#panLight)">${kerb}</g>` +
    `<rect y="512" width="${W}" height="${H - 422}" fill="url(#asphalt)"/>` +
    `<rect y="512" width="${W}" height="${H - 422}" fill="#000" filter="url(#streaks)" opacity=".35"/>` +
    `<rect y="520" width="${W}" height="8" fill="#f1f5f9" opacity=".85" filter="url(#panLight)"/>` +
    shadow(830, G + 4, 560, 22, 0.8) +
    `<g filter="url(#panLight)" opacity=".35">${Array.from({ length: 10 }, () => `<rect x="${n1(-200 + r() * 450)}" y="${n1(520 + r() * 180)}" width="${n1(120 + r() * 260)}" height="2" fill="#fff"/>`).join("")}</g>` +
    car +
    `</g>`;
  return frame(defs, bodyS, { light: [900, 120], lightOp: 0.25, vignette: 0.55 });
}

function ciclismo(v: number, r: Rng): string {
  const sky = pick(
    [
      ["#1b1f4a", "#c0497a", "#ffb45e", "#ffe7a8"],
      ["#0f2a4a", "#d35d3a", "#ffab4a", "#fff0c2"],
      ["#2a1b4a", "#8f3f8f", "#f08a5d", "#ffd9a0"],
    ],
    v,
  );
  const sun: Pt = [1030 + (r() - 0.5) * 120, 500];
  const ridge = (y: number, amp: number, seed: number) => {
    const rr = rng(seed);
    let d = `M-200 ${H}L-200 ${y}`;
    for (let x = -200; x <= W + 200; x += 100) d += `L${x} ${n1(y - amp * (0.5 + 0.5 * Math.sin(x / 230 + seed) + 0.25 * rr()))}`;
    return `${d}L${W + 200} ${H}Z`;
  };
  const wheelAt = (x: number, y: number) =>
    `<circle cx="${x}" cy="${y}" r="96" fill="none" stroke="#07070a" stroke-width="13"/><circle cx="${x}" cy="${y}" r="80" fill="none" stroke="#07070a" stroke-width="7"/>` +
    `<path d="${Array.from({ length: 12 }, (_, i) => `M${x} ${y}L${n1(x + 80 * Math.cos((i * Math.PI) / 6))} ${n1(y + 80 * Math.sin((i * Math.PI) / 6))}`).join("")}" stroke="#07070a" stroke-width="1.5" opacity=".8"/><circle cx="${x}" cy="${y}" r="8" fill="#07070a"/>`;
  const ca = deg(60 + r() * 40);
  const bb: Pt = [740, 652];
  const p1: Pt = [bb[0] + 46 * Math.cos(ca), bb[1] + 46 * Math.sin(ca)];
  const p2: Pt = [bb[0] - 46 * Math.cos(ca), bb[1] - 46 * Math.sin(ca)];
  const knee = (p: Pt, hip: Pt, l1: number, l2: number): Pt => {
    const dx = p[0] - hip[0],
      dy = p[1] - hip[1];
    const d = Math.min(Math.hypot(dx, dy), l1 + l2 - 1);
    const a = Math.atan2(dy, dx) - Math.acos((l1 * l1 + d * d - l2 * l2) / (2 * l1 * d));
    return [hip[0] + l1 * Math.cos(a), hip[1] + l1 * Math.sin(a)];
  };
  const hip: Pt = [700, 452];
  const k1 = knee(p1, hip, 150, 148);
  const k2 = knee(p2, hip, 150, 148);
  const leg = (k: Pt, p: Pt) =>
    `<path d="M${pts([hip])}L${pts([k])}" stroke-width="44"/><path d="M${pts([k])}L${pts([p])}" stroke-width="28"/><path d="M${n1(p[0] - 12)} ${n1(p[1] - 4)}l40 4" stroke-width="14"/>`;
  const rider =
    `<g stroke="#07070a" stroke-linecap="round" stroke-linejoin="round" fill="none">` +
    `<path d="M560 652 L740 652 L705 488 Z M705 488 L905 478 L740 652 M905 478 L920 540 L960 652 M692 466 L705 488" stroke-width="11"/>` +
    `<path d="M905 478 L948 472 C 975 470 982 500 968 525 L950 540" stroke-width="9"/><path d="M668 460 L722 460" stroke-width="10"/>` +
    leg(k2, p2) +
    `<path d="M${pts([bb])}L${pts([p1])}M${pts([bb])}L${pts([p2])}" stroke-width="7"/><circle cx="${bb[0]}" cy="${bb[1]}" r="18" stroke-width="8"/>` +
    `<path d="M874 414 L910 462 L952 476" stroke-width="22"/>` +
    leg(k1, p1) +
    `</g><g fill="#07070a"><path d="M672 452 C 684 412 760 382 850 384 C 890 385 906 410 896 432 C 880 446 850 446 820 450 C 780 458 740 474 716 486 C 690 488 668 476 672 452Z"/>` +
    `<circle cx="938" cy="404" r="15"/><path d="M886 390 C 892 364 934 352 964 370 C 974 376 976 386 968 392 C 940 396 912 396 886 390Z"/></g>` +
    wheelAt(560, 652) +
    wheelAt(960, 652);
  const defs =
    lin("sky", [
      [0, sky[0]!],
      [0.45, sky[1]!],
      [0.75, sky[2]!],
      [1, sky[3]!],
    ]) +
    radU(
      "sun",
      [
        [0, "#fffdf0", 1],
        [0.05, "#fff3c4", 1],
        [0.12, "#ffd27a", 0.6],
        [0.45, "#ff9a4a", 0.2],
        [1, "#ff9a4a", 0],
      ],
      sun[0],
      sun[1],
      700,
    ) +
    lin("hill1", [
      [0, sky[1]!, 0.65],
      [1, sky[2]!, 0.4],
    ]) +
    lin("hill2", [
      [0, "#3b2a4a"],
      [1, "#2a1f3a"],
    ]) +
    lin("hill3", [
      [0, "#1c1626"],
      [1, "#140f1c"],
    ]) +
    lin("road", [
      [0, "#2a2230"],
      [0.3, "#15111a"],
      [1, "#08070a"],
    ]) +
    radU(
      "roadGlow",
      [
        [0, "#ffcf8a", 0.45],
        [1, "#ffcf8a", 0],
      ],
      sun[0],
      760,
      520,
    ) +
    `<filter id="rim" x="-20%" y="-20%" width="140%" height="140%"><feOffset in="SourceAlpha" dx="-4" dy="3" result="o"/><feComposite in="SourceAlpha" in2="o" operator="out" result="edge"/><feFlood flood-color="#ffc878"/><feComposite in2="edge" operator="in"/><feGaussianBlur stdDeviation="1.2"/></filter>` +
    blur("b3", 3) +
    blur("pan", 22, 0.5) +
    blur("kShadowBlur", 10, 4) +
    blur("glow", 5);
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<rect width="${W}" height="${H}" fill="url(#sun)"/>` +
    `<path d="${ridge(560, 120, 1)}" fill="url(#hill1)" filter="url(#b3)"/>` +
    `<g filter="url(#pan)"><path d="${ridge(650, 80, 2)}" fill="url(#hill2)"/><path d="${ridge(700, 40, 3)}" fill="url(#hill3)"/></g>` +
    `<rect y="748" width="${W}" height="${H - 748}" fill="url(#road)"/><rect y="748" width="${W}" height="${H - 748}" fill="url(#roadGlow)"/>` +
    `<g filter="url(#pan)" opacity=".8">${Array.from({ length: 6 }, (_, i) => `<rect x="${i * 320 - 60}" y="818" width="170" height="8" fill="#fff2cc"/>`).join("")}</g>` +
    `<rect y="748" width="${W}" height="3" fill="#ffd9a0" opacity=".5"/>` +
    shadow(720, 752, 330, 9, 0.8) +
    `<g transform="translate(0 -4)">${rider}</g>` +
    `<g transform="translate(0 -4)" filter="url(#rim)">${rider}</g>` +
    `<g filter="url(#b3)">${bokeh(r, [sun[0] - 500, 300, sun[0] + 500, 740], 40, ["#ffe6b0"], [2, 6], [0.2, 0.7])}</g>`;
  return frame(defs, body, { light: sun, lightOp: 0.2, vignette: 0.6, grain: 0.28 });
}

const SCENES: Record<DemoSport, (v: number, r: Rng) => string> = {
  futebol,
  basquete,
  volei,
  tenis,
  natacao,
  corrida,
  automobilismo,
  ciclismo,
};

/** 1600×900 JPEG illustration of a sport; `variant` changes palette/composition (odd variants are mirrored). */
export async function renderDemoImage(sport: DemoSport, variant: number): Promise<Buffer> {
  const v = Number.isFinite(variant) ? Math.max(0, Math.floor(variant)) : 0;
  const svg = SCENES[sport](v, rng(hash(sport) + v * 9973));
  const sharp = await loadSharp();
  const raw = await sharp(Buffer.from(svg)).extract({ left: PAD, top: PAD, width: W, height: H }).png().toBuffer();
  return sharp(raw)
    .flop(v % 2 === 1)
    .flatten({ background: "#000" })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

// --------------------------------------------------------- sponsor logos

const LOGOS: Array<{ bg: [string, string]; mark: string; defs?: string }> = [
  {
    // sports drink: a drop with a wave
    bg: ["#19d3da", "#035e86"],
    defs: lin("m", [
      [0, "#ffffff"],
      [1, "#c9f3ff"],
    ]),
    mark:
      `<path d="M200 78 C 200 78 112 182 112 246 A 88 88 0 0 0 288 246 C 288 182 200 78 200 78Z" fill="url(#m)"/>` +
      `<path d="M132 262 C 170 236 206 292 268 256 C 262 300 236 326 200 330 C 164 330 138 302 132 262Z" fill="#0aa6c9"/>` +
      `<path d="M165 200 C 150 222 146 244 152 262" stroke="#fff" stroke-width="12" stroke-linecap="round" fill="none" opacity=".9"/>`,
  },
  {
    // running brand: winged sneaker
    bg: ["#ff7a45", "#c3123f"],
    mark:
      `<path d="M150 204 C 118 172 86 162 54 166 C 84 180 106 196 122 218Z" fill="#fff" opacity=".75"/>` +
      `<path d="M148 190 C 126 152 98 134 66 128 C 92 148 110 170 122 200Z" fill="#fff" opacity=".85"/>` +
      `<path d="M152 178 C 142 140 122 114 94 98 C 112 124 122 150 126 184Z" fill="#fff"/>` +
      `<path d="M112 258 C 114 216 128 192 152 186 C 170 198 188 206 210 210 C 240 216 272 228 296 242 C 310 250 312 258 306 262Z" fill="#fff"/>` +
      `<path d="M150 242 C 196 236 246 228 290 248" stroke="#e2375a" stroke-width="9" fill="none" stroke-linecap="round"/>` +
      `<path d="M100 276 C 100 264 110 262 124 262 L 296 264 C 318 265 326 276 318 286 C 312 294 300 296 288 296 L 122 296 C 106 296 100 288 100 276Z" fill="#ffe1d6"/>`,
  },
  {
    // insurance/bank: shield with a chevron and star
    bg: ["#1f4fa8", "#071735"],
    defs: lin("m", [
      [0, "#ffe066"],
      [1, "#e0a100"],
    ]),
    mark:
      `<path d="M200 80 L 300 116 L 300 200 C 300 266 258 308 200 330 C 142 308 100 266 100 200 L 100 116Z" fill="url(#m)"/>` +
      `<path d="M200 104 L 278 132 L 278 200 C 278 252 246 288 200 306 C 154 288 122 252 122 200 L 122 132Z" fill="#0b2454"/>` +
      `<path d="M148 226 L 200 262 L 252 226" stroke="url(#m)" stroke-width="20" fill="none" stroke-linejoin="round" stroke-linecap="round"/>` +
      `<path d="M200 142 L 211 170 L 241 171 L 217 189 L 226 218 L 200 201 L 174 218 L 183 189 L 159 171 L 189 170Z" fill="url(#m)"/>`,
  },
  {
    // energy/telecom: lightning bolt
    bg: ["#7c3aed", "#1e0b4b"],
    defs:
      lin("m", [
        [0, "#fff27a"],
        [1, "#ffb800"],
      ]) + blur("g", 10),
    mark:
      `<path d="M222 70 L 128 226 L 194 226 L 170 332 L 276 168 L 208 168 L 238 70Z" fill="#ffd400" filter="url(#g)" opacity=".8"/>` +
      `<path d="M222 70 L 128 226 L 194 226 L 170 332 L 276 168 L 208 168 L 238 70Z" fill="url(#m)" stroke="#fff" stroke-width="6" stroke-linejoin="round"/>`,
  },
];

/** 400×400 PNG logo of a fictional sponsor (index wraps around 4 designs). */
export async function renderSponsorLogo(index: number): Promise<Buffer> {
  const l = pick(LOGOS, Math.floor(index));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400"><defs>` +
    rad(
      "bg",
      [
        [0, l.bg[0]],
        [1, l.bg[1]],
      ],
      0.5,
      0.5,
      0.75,
      0.32,
      0.25,
    ) +
    rad(
      "gloss",
      [
        [0, "#fff", 0.25],
        [1, "#fff", 0],
      ],
      0.5,
      0.2,
      0.6,
    ) +
    `${l.defs ?? ""}</defs><rect width="400" height="400" fill="url(#bg)"/><rect width="400" height="400" fill="url(#gloss)"/>` +
    `<circle cx="200" cy="200" r="176" fill="none" stroke="#fff" stroke-opacity=".22" stroke-width="6"/>${l.mark}</svg>`;
  return (await loadSharp())(Buffer.from(svg)).png({ compressionLevel: 9, palette: true, quality: 95, dither: 0.8 }).toBuffer();
}

// ------------------------------------------------------------------ video

/**
 * 4 s, 640×360, 25 fps H.264 clip: mowed pitch stripes scrolling under a
 * sweeping floodlight with a ball crossing the frame. Null without an ffmpeg for this platform.
 */
export async function renderDemoVideo(): Promise<Buffer | null> {
  const ffmpeg = ffmpegPath();
  if (!ffmpeg) return null;
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), "demo-video-"));
    const out = join(dir, "demo.mp4");
    // Pitch: grey stripes + moving floodlight (drawn at half size, tinted green, upscaled);
    // ball: a tiny shaded disc overlaid along an arc. geq is per-pixel, so keep it cheap.
    const pitch =
      "color=c=black:s=320x180:r=25:d=4,format=gray," +
      "geq=lum='(105+24*lt(mod(X+35*T+0.35*Y\\,60)\\,30))*(0.62+0.38*Y/H+0.5*exp(-pow(X-40-60*T\\,2)/7500))'," +
      "format=rgb24,colorchannelmixer=rr=0.21:gg=1:bb=0.46,scale=640:360:flags=bicubic[bg]";
    const shade = "255-3.2*hypot(X-14\\,Y-14)";
    const ball =
      "color=c=white:s=40x40:r=25:d=4,format=rgba," +
      `geq=r='${shade}':g='${shade}':b='${shade}':a='255*clip(19.5-hypot(X-19.5\\,Y-19.5)\\,0\\,1)'[ball]`;
    const graph = `${pitch};${ball};[bg][ball]overlay=x='40+140*t':y='230-150*sin(PI*t/4)':eval=frame:shortest=1,vignette=angle=PI/4.5,format=yuv420p[v]`;
    const res = spawnSync(
      ffmpeg,
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-y",
        "-filter_complex",
        graph,
        "-map",
        "[v]",
        "-t",
        "4",
        "-an",
        "-c:v",
        "libx264",
        "-preset",
        "medium",
        "-crf",
        "28",
        "-maxrate",
        "500k",
        "-bufsize",
        "1000k",
        "-pix_fmt",
        "yuv420p",
        "-movflags",
        "+faststart",
        out,
      ],
      { stdio: ["ignore", "ignore", "pipe"], timeout: 120_000 },
    );
    if (res.error || res.status !== 0) return null;
    const buf = readFileSync(out);
    return buf.length > 0 ? buf : null;
  } catch {
    return null;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
