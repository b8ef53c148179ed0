import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_STREAM_CAP, DESCRIPTORS_KEPT, encodeEvent, openFilesLimit, streamCap } from "#server/event-streams.ts";

describe("the open pages' event stream: its cap and its wire format", () => {
  it("reads the open-files limit of the process (Linux /proc/self/limits)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-limits-"));
    try {
      const file = path.join(dir, "limits");
      fs.writeFileSync(
        file,
        "Limit                     Soft Limit           Hard Limit           Units\nMax open files            20000                524288               files\n",
      );
      expect(openFilesLimit(file)).toBe(20_000);
      fs.writeFileSync(file, "Max open files            unlimited            unlimited            files\n");
      expect(openFilesLimit(file)).toBe(Number.POSITIVE_INFINITY);
      expect(openFilesLimit(path.join(dir, "nada"))).toBeNull();
      if (process.platform === "linux") expect(openFilesLimit()).toBeGreaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("holds what the open-files limit leaves, or EVENT_STREAMS_MAX when lower; never more than the descriptors allow", () => {
    expect(streamCap(undefined, 20_000)).toBe(20_000 - DESCRIPTORS_KEPT);
    expect(streamCap(undefined, 1024)).toBe(100);
    expect(streamCap(undefined, null)).toBe(DEFAULT_STREAM_CAP);
    expect(streamCap(undefined, Number.POSITIVE_INFINITY)).toBe(DEFAULT_STREAM_CAP);
    expect(streamCap(3_000, 20_000)).toBe(3_000);
    expect(streamCap(50_000, 20_000)).toBe(20_000 - DESCRIPTORS_KEPT);
    expect(streamCap(50_000, null)).toBe(50_000);
  });

  it("encodes an event once: a live story's change says which story and how; the others, the changed paths", () => {
    const text = (buffer: Buffer | null) => buffer?.toString("utf8");
    expect(text(encodeEvent("liveUpdated", { live: { newsId: "n1", updateId: "u1", change: "created" }, paths: ["/article/n1"] }))).toBe(
      'event: liveUpdated\ndata: {"newsId":"n1","updateId":"u1","change":"created"}\n\n',
    );
    expect(encodeEvent("liveUpdated", {})).toBeNull();
    expect(text(encodeEvent("newsUpdated", { paths: ["/article/n1", "/categoria/futebol"] }))).toBe(
      'event: newsUpdated\ndata: {"paths":["/article/n1","/categoria/futebol"]}\n\n',
    );
    // A score change: the story's own open article takes it from liveUpdated (app/lib/use-live-updates.ts).
    expect(text(encodeEvent("newsUpdated", { paths: ["/article/n1"], liveStory: "n1", newsroomOnly: true }))).toBe(
      'event: newsUpdated\ndata: {"paths":["/article/n1"],"liveStory":"n1"}\n\n',
    );
    expect(text(encodeEvent("sponsorsUpdated", {}))).toBe("event: sponsorsUpdated\ndata: {}\n\n");
    expect(text(encodeEvent("resync", { since: 5 }))).toBe("event: resync\ndata: {}\n\n");
  });
});
