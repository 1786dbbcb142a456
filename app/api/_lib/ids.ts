import { z } from "zod";

export const proposalParams = z.object({ id: z.string().min(1).max(100) });

/** `?actions=0,2` → [0, 2] (0-based action indexes). */
export const actionIndexList = z
  .string()
  .regex(/^\d+(,\d+)*$/, "actions must be comma-separated action numbers, 0-based")
  .transform((s) => s.split(",").map(Number))
  .optional();
