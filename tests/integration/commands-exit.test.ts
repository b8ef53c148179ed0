import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminal } from "#app/i18n/pt-BR.ts";
import { createPostgresDatabase, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { spawnServer } from "#tests/factories/site.ts";

/**
 * Every `npm run` command ends by itself, on SQLite and on PostgreSQL (a command that keeps a LISTEN connection, a
 * Redis client or a pool open never returns the operator's prompt). Each runs as npm runs it: the script through
 * the Node of node_modules/.bin, as a child process, killed if it is still alive after DEADLINE_MS.
 */
const NODE = path.resolve("node_modules/.bin/node");
/** Each command does its work in about 2 s on this machine; a hang is what the deadline catches. */
const DEADLINE_MS = 20_000;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  killed: boolean;
}

function run(script: string, args: string[], env: Record<string, string>, input = ""): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [path.resolve("scripts", script), ...args], {
      env: { ...process.env, SEED_DEMO: "0", LOG_LEVEL: "warn", NODE_ENV: "production", REDIS_URL: "", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, DEADLINE_MS);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Math.round(performance.now() - started), killed });
    });
    child.stdin.end(input);
  });
}

/** Ended by itself, with no stack trace and no handle left open. */
function expectClean(result: Run) {
  expect(result.killed, `still running after ${DEADLINE_MS} ms:\n${result.stdout}\n${result.stderr}`).toBe(false);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toContain("algo ficou aberto");
}

const postgres = TEST_DATABASE === "postgres";
let dataDir: string;
let env: Record<string, string>;
let drop: (() => Promise<void>) | null = null;

beforeAll(async () => {
  dataDir = makeDataDir("eef-commands-");
  env = { DATA_DIR: dataDir };
  if (postgres) {
    const database = await createPostgresDatabase();
    env.DATABASE_URL = database.url;
    drop = database.drop;
  }
});

afterAll(async () => {
  await drop?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`every npm run command ends by itself (${TEST_DATABASE})`, () => {
  it("db:migrate applies the migrations, then finds nothing to do", async () => {
    const first = await run("migrate.ts", [], env);
    expectClean(first);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^Migrações aplicadas|^Banco de dados/);
    const second = await run("migrate.ts", [], env);
    expectClean(second);
    expect(second.status).toBe(0);
    expect(second.stdout.trim()).toBe(terminal.migrate.upToDate);
  });

  it("admin create, list and a refused grant", async () => {
    const created = await run("admin.ts", ["create", "--email", "saida@redacao.example"], env, "senha-saida-1\n");
    expectClean(created);
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^Administrador criado: saida@redacao\.example \(/);
    const listed = await run("admin.ts", ["list"], env);
    expectClean(listed);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain("saida@redacao.example");
    const refused = await run("admin.ts", ["grant", "ninguem@redacao.example"], env);
    expectClean(refused);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe('Nenhuma conta encontrada com id ou e-mail "ninguem@redacao.example".');
  });

  it("seed:news adds the news", async () => {
    const result = await run("seed-news.ts", ["--count", "3", "--images", "0"], env);
    expectClean(result);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("3 notícias adicionadas");
  });

  it("import:firestore (dry run) reads the export and reports", async () => {
    const result = await run("import-firestore.ts", [path.resolve("tests/fixtures/firestore"), "--dry-run"], env);
    expectClean(result);
    // 2: some documents of the fixture are refused on purpose (see firestore-import.test.ts).
    expect(result.status).toBe(2);
    expect(result.stdout).toContain("Simulando a importação");
    const missing = await run("import-firestore.ts", ["/nao/existe"], env);
    expectClean(missing);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("/nao/existe: arquivo ou pasta não encontrado");
  });

  it("media:sweep lists stale .part files in a dry run and removes them in a real one, never a young one", async () => {
    const uploads = path.join(dataDir, "tmp", "uploads");
    const storeTemp = path.join(dataDir, "media", ".tmp");
    fs.mkdirSync(uploads, { recursive: true });
    fs.mkdirSync(storeTemp, { recursive: true });
    const stale = [path.join(uploads, "interrompido.part"), path.join(storeTemp, "meio-escrito.part")];
    const young = path.join(uploads, "em-andamento.part");
    const dayAgo = new Date(Date.now() - 24 * 3600_000);
    for (const file of stale) {
      fs.writeFileSync(file, "x");
      fs.utimesSync(file, dayAgo, dayAgo);
    }
    fs.writeFileSync(young, "x");

    const dry = await run("media-sweep.ts", ["--dry-run"], env);
    expectClean(dry);
    expect(dry.status).toBe(0);
    for (const file of stale) expect(dry.stdout).toContain(file);
    expect(dry.stdout).not.toContain(young);
    expect(dry.stdout).toContain(terminal.mediaSweep.wouldRemoveTemp(2));
    for (const file of [...stale, young]) expect(fs.existsSync(file)).toBe(true);

    const real = await run("media-sweep.ts", [], env);
    expectClean(real);
    expect(real.status).toBe(0);
    expect(real.stdout).toContain(terminal.mediaSweep.removed(0, 0, 2));
    for (const file of stale) expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);

    const unknown = await run("media-sweep.ts", ["--sem-isso"], env);
    expectClean(unknown);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("--sem-isso");
  });

  it("backup and restore: done on SQLite, refused with a message on PostgreSQL", async () => {
    const out = makeDataDir("eef-commands-backup-");
    try {
      const backup = await run("backup.ts", ["--out", out], env);
      expectClean(backup);
      if (postgres) {
        expect(backup.status).toBe(1);
        expect(backup.stderr).toContain("pg_dump");
        const restore = await run("restore.ts", [out], env);
        expectClean(restore);
        expect(restore.status).toBe(1);
        expect(restore.stderr).toContain("pg_dump");
        return;
      }
      expect(backup.status).toBe(0);
      const [folder] = fs.readdirSync(out);
      // Back into the same DATA_DIR (its signing key checks the manifest); what is there is moved aside.
      // A port nothing listens on: restore refuses while a server answers on the configured one.
      const restore = await run("restore.ts", [path.join(out, folder!), "--force"], { ...env, PORT: "39917" });
      expectClean(restore);
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stdout).toContain(terminal.restore.startServer);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  // A configuration error stops every command before it opens a database: once, in the SQLite project.
  it.runIf(!postgres)("a configuration error prints its message, not a stack trace, in every command", async () => {
    const commands: Array<[string, string[]]> = [
      ["migrate.ts", []],
      ["admin.ts", ["list"]],
      ["seed-news.ts", ["--count", "1"]],
      ["import-firestore.ts", [path.resolve("tests/fixtures/firestore"), "--dry-run"]],
      ["media-sweep.ts", ["--dry-run"]],
      ["backup.ts", []],
      ["restore.ts", [dataDir]],
    ];
    const results = await Promise.all(commands.map(([script, args]) => run(script, args, { ...env, MEDIA_STORE: "nenhum" })));
    for (const [index, result] of results.entries()) {
      expectClean(result);
      expect(result.status, commands[index]![0]).toBe(1);
      expect(result.stderr.trim(), commands[index]![0]).toMatch(/^Configuração inválida:\n {2}MEDIA_STORE: /);
      expect(result.stderr).not.toContain("ConfigError");
    }
  });
});

/** A port on 127.0.0.1 nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The production server (`npm start`: server.js on the build), as a command that is expected to end. */
const SERVER = path.resolve("server.js");

/** One pt-BR line on stderr, exit code 1, nothing of the error's stack or fields. */
function expectOneLine(result: Run, command: string, line: RegExp) {
  expectClean(result);
  expect(result.status, `${command}\n${result.stdout}\n${result.stderr}`).toBe(1);
  expect(result.stderr.trim(), command).toMatch(line);
  expect(result.stderr.trim().split("\n"), command).toHaveLength(1);
  // No error object dumped (util.inspect's `{ errno: …, code: … }`, a JSON log line with `err`).
  expect(`${result.stdout}${result.stderr}`, command).not.toMatch(/errno|ECONNREFUSED|ENOTFOUND|"err"|\$metadata|Error:/);
}

describe(`a dependency that cannot be reached at start: one pt-BR line, exit 1 (${TEST_DATABASE})`, () => {
  const commands: Array<[string, string[]]> = [
    [SERVER, []],
    ["admin.ts", ["list"]],
    ["migrate.ts", []],
    ["media-sweep.ts", ["--dry-run"]],
  ];
  const serverEnv = { SITE_URL: "https://esporte.example", PORT: "0", HOST: "127.0.0.1", AUTH_SECRET: "s".repeat(40) };

  // Whatever the project's own database, these URLs name a PostgreSQL that is not there: once, in the PostgreSQL project.
  it.runIf(postgres)(
    "PostgreSQL's port closed, a DATABASE_URL whose host does not exist, one that never answers: the server, admin, db:migrate and media:sweep",
    async () => {
      const port = await closedPort();
      // Takes connections and never answers (a hung host): the start gives up after its 10 s connection timeout.
      const held = new Set<net.Socket>();
      const silent = net.createServer((socket) => {
        held.add(socket);
        socket.on("error", () => undefined);
      });
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const silentPort = (silent.address() as net.AddressInfo).port;
      const cases: Array<[string, RegExp]> = [
        [
          `postgres://postgres:segredo-nao-mostrado@127.0.0.1:${port}/eef`,
          new RegExp(
            `^Banco de dados indisponível: o PostgreSQL em 127\\.0\\.0\\.1:${port} recusou a conexão \\(nada escuta nessa porta\\)\\. Confira DATABASE_URL`,
          ),
        ],
        [
          "postgres://postgres@eef-sem-servidor.invalid:5432/eef",
          /^Banco de dados indisponível: o PostgreSQL em eef-sem-servidor\.invalid:5432 não foi encontrado/,
        ],
        [
          `postgres://postgres@127.0.0.1:${silentPort}/eef`,
          new RegExp(`^Banco de dados indisponível: o PostgreSQL em 127\\.0\\.0\\.1:${silentPort} não respondeu a tempo\\.`),
        ],
      ];
      try {
        for (const [url, line] of cases) {
          const results = await Promise.all(commands.map(([script, args]) => run(script, args, { ...env, ...serverEnv, DATABASE_URL: url })));
          for (const [index, result] of results.entries()) {
            expectOneLine(result, `${commands[index]![0]} ${url}`, line);
            expect(result.stderr).not.toContain("segredo-nao-mostrado");
          }
        }
      } finally {
        for (const socket of held) socket.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    },
    90_000,
  );

  it(postgres ? "a database that does not exist on the running PostgreSQL" : "a SQLite file that cannot be created", async () => {
    const scratch = makeDataDir("eef-commands-nowhere-");
    try {
      let url: string;
      let line: RegExp;
      if (postgres) {
        const server = new URL(env.DATABASE_URL!);
        server.pathname = "/eef_nao_existe";
        url = server.toString();
        line = new RegExp(
          `^Banco de dados indisponível: o PostgreSQL em ${server.hostname.replaceAll(".", "\\.")}:${server.port || 5432} não tem o banco de dados pedido\\.`,
        );
      } else {
        // Its folder would be inside a file.
        fs.writeFileSync(path.join(scratch, "arquivo"), "x");
        url = `file:${path.join(scratch, "arquivo", "banco.sqlite")}`;
        line =
          /^Banco de dados indisponível: não foi possível abrir o arquivo SQLite .*arquivo\/banco\.sqlite \(parte do caminho não é uma pasta\)\./;
      }
      const results = await Promise.all(commands.map(([script, args]) => run(script, args, { ...env, ...serverEnv, DATABASE_URL: url })));
      for (const [index, result] of results.entries()) expectOneLine(result, commands[index]![0], line);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);

  it("an S3_ENDPOINT that does not answer: media:sweep and a first start that must store the demo media say so; a started site stays up", async () => {
    const port = await closedPort();
    const s3 = {
      MEDIA_STORE: "s3",
      S3_BUCKET: "midia-eef",
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: "1",
      S3_ACCESS_KEY_ID: "chave",
      S3_SECRET_ACCESS_KEY: "segredo",
    };
    const line = new RegExp(`^Armazenamento de mídia indisponível: o S3 em http://127\\.0\\.0\\.1:${port} \\(bucket midia-eef\\) não responde\\.`);
    const scratch = makeDataDir("eef-commands-s3-");
    try {
      // A new installation of its own (the demo content is only stored on an empty one), on the same database kind.
      const fresh = postgres ? await createPostgresDatabase() : null;
      try {
        const own = { DATA_DIR: scratch, ...(fresh ? { DATABASE_URL: fresh.url } : {}), ...s3 };
        const [sweep, firstStart] = await Promise.all([
          run("media-sweep.ts", ["--dry-run"], own),
          run(SERVER, [], { ...own, ...serverEnv, SEED_DEMO: "1" }),
        ]);
        expectOneLine(sweep, "media:sweep", line);
        expectOneLine(firstStart, "npm start (demo)", line);
      } finally {
        await fresh?.drop();
      }
      // An installation that needs nothing from the store to start serves its pages while S3 is down.
      const site = await spawnServer({ env: { ...env, ...s3 } });
      try {
        const health = await fetch(`${site.url}/healthz`);
        expect(health.status).toBe(200);
      } finally {
        await site.stop();
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }, 90_000);
});
