import { describe, expect, it } from "vitest";
import type { Actor } from "./permissions";
import type { Decision } from "./approval-policy";
import {
  DEFAULT_APPROVAL_POLICY,
  approvalMode,
  approveButtonLabel,
  approvalPolicySchema,
  canApprove,
  canApproveTogether,
  canReject,
  countApprovers,
  effectivePolicy,
  evaluateAction,
} from "./approval-policy";

const user = (userId: string, role: "admin" | "reviewer" | "viewer"): Actor => ({ kind: "user", userId, username: userId, displayName: userId, role, sessionId: "s" });
const token: Actor = { kind: "token", userId: "ada", username: "ada", displayName: "ada", role: "admin", tokenId: "t", scope: "propose" };
const target = { confidence: "LOW" as const, status: "pending", startedById: "sam", submittedById: "pat" };
const decision = (userId: string, kind: "approve" | "reject", extra: Partial<Decision> = {}): Decision => ({
  userId,
  userName: userId,
  kind,
  reason: null,
  graphVersion: 3,
  createdAt: "2026-11-30T00:00:00.000Z",
  withdrawnAt: null,
  dismissedAt: null,
  dismissedReason: null,
  ...extra,
});

describe("canApprove", () => {
  it("refuses viewers, tokens, the CLI, the run's starter and the submitter, with reasons", () => {
    const p = DEFAULT_APPROVAL_POLICY;
    expect(canApprove(user("vic", "viewer"), target, p)).toMatchObject({ allowed: false, code: "NO_PERMISSION" });
    expect(canApprove(token, target, p)).toMatchObject({ allowed: false, code: "NOT_A_PERSON" });
    expect(canApprove({ kind: "cli", username: "cli", displayName: "command line" }, target, p)).toMatchObject({ allowed: false, code: "NOT_A_PERSON" });
    expect(canApprove(user("sam", "admin"), target, p)).toMatchObject({ allowed: false, code: "OWN_RUN" });
    expect(canApprove(user("pat", "reviewer"), target, p)).toMatchObject({ allowed: false, code: "OWN_PROPOSAL" });
    expect(canApprove(user("rita", "reviewer"), target, p)).toEqual({ allowed: true });
    expect(canApprove(user("rita", "reviewer"), { ...target, editedByIds: ["rita"] }, p)).toMatchObject({ allowed: false, code: "OWN_EDIT" });
  });

  it("follows approverRole and separateDuties; refuses vetoed, decided and already approved actions", () => {
    const adminsOnly = { ...DEFAULT_APPROVAL_POLICY, approverRole: "admin" as const };
    expect(canApprove(user("rita", "reviewer"), target, adminsOnly)).toMatchObject({ allowed: false, code: "NEEDS_ADMIN" });
    expect(canApprove(user("ada", "admin"), target, adminsOnly)).toEqual({ allowed: true });
    const solo = { ...DEFAULT_APPROVAL_POLICY, separateDuties: false };
    expect(canApprove(user("pat", "reviewer"), target, solo)).toEqual({ allowed: true });
    expect(canApprove(user("rita", "reviewer"), { ...target, vetoed: true }, DEFAULT_APPROVAL_POLICY)).toMatchObject({ code: "VETOED" });
    expect(canApprove(user("rita", "reviewer"), { ...target, status: "applied" }, DEFAULT_APPROVAL_POLICY)).toMatchObject({ code: "NOT_PENDING" });
    expect(canApprove(user("rita", "reviewer"), { ...target, approvedByActor: true }, DEFAULT_APPROVAL_POLICY)).toMatchObject({ code: "ALREADY_APPROVED" });
  });

  it("lets a proposer veto their own proposal, but not a viewer or a token", () => {
    expect(canReject(user("pat", "reviewer"), target, DEFAULT_APPROVAL_POLICY)).toEqual({ allowed: true });
    expect(canReject(user("vic", "viewer"), target, DEFAULT_APPROVAL_POLICY)).toMatchObject({ allowed: false });
    expect(canReject(token, target, DEFAULT_APPROVAL_POLICY)).toMatchObject({ allowed: false });
  });
});

describe("canApproveTogether", () => {
  it("allows several only when all are HIGH and bulkHigh is on", () => {
    expect(canApproveTogether(["HIGH", "HIGH"], DEFAULT_APPROVAL_POLICY).allowed).toBe(true);
    expect(canApproveTogether(["HIGH", "MEDIUM"], DEFAULT_APPROVAL_POLICY).allowed).toBe(false);
    expect(canApproveTogether(["HIGH", "HIGH"], { ...DEFAULT_APPROVAL_POLICY, bulkHigh: false }).allowed).toBe(false);
    expect(canApproveTogether(["LOW"], DEFAULT_APPROVAL_POLICY).allowed).toBe(true);
  });
});

describe("evaluateAction", () => {
  it("counts distinct people, ignores withdrawn and dismissed approvals, and treats any active reject as a veto", () => {
    const p = DEFAULT_APPROVAL_POLICY;
    const low = { confidence: "LOW" as const };
    expect(evaluateAction(p, low, [decision("rita", "approve")])).toMatchObject({ approvals: 1, required: 2, satisfied: false, needsReason: true });
    expect(evaluateAction(p, low, [decision("rita", "approve"), decision("rita", "approve")]).approvals).toBe(1);
    expect(evaluateAction(p, low, [decision("rita", "approve"), decision("remy", "approve")])).toMatchObject({ approvals: 2, satisfied: true, approvers: ["rita", "remy"] });
    const withdrawn = decision("remy", "approve", { withdrawnAt: "2026-11-30T01:00:00.000Z" });
    const dismissed = decision("remy", "approve", { dismissedAt: "2026-11-30T01:00:00.000Z", dismissedReason: "changed since approved: edge x removed in version 4" });
    expect(evaluateAction(p, low, [decision("rita", "approve"), withdrawn]).satisfied).toBe(false);
    const e = evaluateAction(p, low, [decision("rita", "approve"), dismissed]);
    expect(e).toMatchObject({ approvals: 1, satisfied: false, dismissed: [{ userName: "remy", reason: "changed since approved: edge x removed in version 4" }] });
    const vetoed = evaluateAction(p, { confidence: "HIGH" }, [decision("rita", "approve"), decision("rosa", "reject", { reason: "wrong" })]);
    expect(vetoed).toMatchObject({ approvals: 1, required: 1, vetoed: true, satisfied: false, vetoers: [{ userName: "rosa", reason: "wrong" }] });
    expect(evaluateAction(p, { confidence: "HIGH" }, [decision("rosa", "reject", { withdrawnAt: "2026-11-30T01:00:00.000Z" }), decision("rita", "approve")]).satisfied).toBe(true);
  });

  it("asks isStale about every live approval, so a missed dismissal never counts", () => {
    const e = evaluateAction(DEFAULT_APPROVAL_POLICY, { confidence: "HIGH" }, [decision("rita", "approve", { graphVersion: 2 })], (d) => (d.graphVersion < 3 ? "changed since approved: node \"A\" changed in version 3" : null));
    expect(e).toMatchObject({ approvals: 0, satisfied: false });
  });

  it("labels the approve button by whether the click applies", () => {
    expect(approveButtonLabel({ approvals: 0, required: 2 })).toBe("Approve (1 of 2)");
    expect(approveButtonLabel({ approvals: 1, required: 2 })).toBe("Approve and apply");
    expect(approveButtonLabel({ approvals: 0, required: 1 })).toBe("Approve and apply");
  });
});

describe("approvalPolicySchema", () => {
  it("accepts the defaults and refuses zero approvals or an unknown role", () => {
    expect(approvalPolicySchema.parse(DEFAULT_APPROVAL_POLICY)).toEqual(DEFAULT_APPROVAL_POLICY);
    expect(approvalPolicySchema.safeParse({ ...DEFAULT_APPROVAL_POLICY, requiredLow: 0 }).success).toBe(false);
    expect(approvalPolicySchema.safeParse({ ...DEFAULT_APPROVAL_POLICY, approverRole: "viewer" }).success).toBe(false);
  });
});

describe("solo and team mode", () => {
  const person = (role: string, disabled = false) => ({ role, disabled });

  it("is solo while fewer than two enabled accounts may approve under the policy", () => {
    const p = DEFAULT_APPROVAL_POLICY;
    expect(approvalMode(p, [])).toBe("solo");
    expect(approvalMode(p, [person("admin")])).toBe("solo");
    // Viewers and disabled accounts never approve: they do not make a team.
    expect(approvalMode(p, [person("admin"), person("viewer"), person("reviewer", true)])).toBe("solo");
    expect(approvalMode(p, [person("admin"), person("reviewer")])).toBe("team");
    // An admins-only policy counts admins only.
    const adminsOnly = { ...p, approverRole: "admin" as const };
    expect(countApprovers(adminsOnly, [person("admin"), person("reviewer")])).toBe(1);
    expect(approvalMode(adminsOnly, [person("admin"), person("reviewer")])).toBe("solo");
    expect(approvalMode(adminsOnly, [person("admin"), person("admin")])).toBe("team");
  });

  it("solo: the one approver approves their own run with one approval; LOW still needs the written reason", () => {
    const stored = { ...DEFAULT_APPROVAL_POLICY, requiredLow: 3, requiredMedium: 2, lowNeedsReason: false };
    const solo = effectivePolicy(stored, "solo");
    expect(solo).toMatchObject({ requiredHigh: 1, requiredMedium: 1, requiredLow: 1, lowNeedsReason: true, separateDuties: false });
    expect(approvalPolicySchema.parse(solo)).toEqual(solo);
    const own = { ...target, startedById: "ada", submittedById: "ada", editedByIds: ["ada"] };
    expect(canApprove(user("ada", "admin"), own, solo)).toEqual({ allowed: true });
    const once = evaluateAction(solo, { confidence: "LOW" }, [decision("ada", "approve", { reason: "checked" })]);
    expect(once).toMatchObject({ approvals: 1, required: 1, satisfied: true, needsReason: true });
    // A veto still blocks, and a viewer still cannot approve, in solo mode too.
    expect(canApprove(user("ada", "admin"), { ...own, vetoed: true }, solo)).toMatchObject({ code: "VETOED" });
    expect(canApprove(user("vic", "viewer"), own, solo)).toMatchObject({ code: "NO_PERMISSION" });
  });

  it("team: the stored policy applies unchanged, separation of duties included", () => {
    const team = effectivePolicy(DEFAULT_APPROVAL_POLICY, "team");
    expect(team).toEqual(DEFAULT_APPROVAL_POLICY);
    expect(canApprove(user("sam", "admin"), target, team)).toMatchObject({ allowed: false, code: "OWN_RUN" });
  });
});
