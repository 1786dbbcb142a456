import { z } from "zod";
import { decodeNodeSegment } from "@/components/api/node-segment";

export const graphNameParam = z.string().min(1).max(200);

/** Next has already percent-decoded the segment; undo the dot-segment escape on top of it. */
export const nodeIdParam = z.string().min(1).max(20_000).transform(decodeNodeSegment);

export const graphParams = z.object({ name: graphNameParam });
export const nodeParams = z.object({ name: graphNameParam, nodeId: nodeIdParam });
