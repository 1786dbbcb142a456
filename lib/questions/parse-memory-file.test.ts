import { describe, expect, it } from "vitest";
import { parseMemoryFile } from "./parse-memory-file";
import { queryIdOf } from "./query-id";

describe("graphify memory files", () => {
  it("reads the front matter question", () => {
    expect(parseMemoryFile('---\nquestion: "How does Client send a request?"\ndate: 2026-01-01\n---\n# Q: other\n')).toBe(
      "How does Client send a request?",
    );
    expect(parseMemoryFile("---\r\nquestion: it's fine\r\n---\r\nbody")).toBe("it's fine");
    expect(parseMemoryFile("---\nquestion: 'it''s quoted'\n---\n")).toBe("it's quoted");
  });

  it("falls back to the first # Q: heading", () => {
    expect(parseMemoryFile("some notes\n# Q: What calls send()?\n\n# Q: second")).toBe("What calls send()?");
  });

  it("returns null when there is no question", () => {
    expect(parseMemoryFile("---\ntitle: x\n---\n# Notes")).toBeNull();
    expect(parseMemoryFile("")).toBeNull();
  });
});

describe("query ids", () => {
  it("hash the stripped text like deeprefine", () => {
    expect(queryIdOf("  What is X?\n")).toBe(queryIdOf("What is X?"));
    expect(queryIdOf("What is X?")).toMatch(/^[0-9a-f]{16}$/);
    expect(queryIdOf("What is X?")).toBe("b1a0c3c467426aae"); // Python: hashlib.sha256(b"What is X?").hexdigest()[:16]
  });
});
