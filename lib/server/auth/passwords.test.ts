import { describe, expect, it } from "vitest";
import { findPasswordProblem, hashPassword, verifyPassword } from "./passwords";

describe("passwords", () => {
  it("stores scrypt with its parameters and a fresh salt, and verifies", async () => {
    const a = await hashPassword("a long enough secret");
    const b = await hashPassword("a long enough secret");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("a long enough secret", a)).toBe(true);
    expect(await verifyPassword("a long enough secreT", a)).toBe(false);
  });

  it("treats a malformed stored hash as a wrong password", async () => {
    expect(await verifyPassword("anything at all", "")).toBe(false);
    expect(await verifyPassword("anything at all", "md5$abc")).toBe(false);
    expect(await verifyPassword("anything at all", "scrypt$0$8$1$c2FsdA$aGFzaA")).toBe(false);
  });

  it("refuses short and obvious passwords", () => {
    expect(findPasswordProblem("short")).toMatch(/at least 10/);
    expect(findPasswordProblem("password123")).toMatch(/guess/);
    expect(findPasswordProblem("aaaaaaaaaaaa")).toMatch(/guess/);
    expect(findPasswordProblem("tulip-window-42")).toBeNull();
  });
});
