import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { withStatementCache } from "#app/.server/db/database.server.ts";

describe("withStatementCache (SQLite)", () => {
  it("prepares each SQL text once, and the cached statement gives the current rows", () => {
    const database = new DatabaseSync(":memory:");
    let prepared = 0;
    const counting = new Proxy(database, {
      get(target, property) {
        if (property === "prepare")
          return (sql: string) => {
            prepared++;
            return target.prepare(sql);
          };
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const cached = withStatementCache(counting, 2);
    cached.exec("create table t (n integer)");
    const insert = (n: number) => cached.prepare("insert into t (n) values (?)").run(n);
    const count = () => (cached.prepare("select count(*) as c from t").get() as { c: number }).c;
    insert(1);
    insert(2);
    expect(count()).toBe(2);
    insert(3);
    expect(count()).toBe(3);
    expect(prepared).toBe(2);
    // A third statement pushes out the least recently used one (the insert), which is prepared again when needed.
    expect(cached.prepare("select max(n) as m from t").get()).toEqual({ m: 3 });
    insert(4);
    expect(prepared).toBe(4);
    expect(count()).toBe(4);
    expect(cached.isOpen).toBe(true);
    cached.close();
    expect(database.isOpen).toBe(false);
  });
});
