// The mapping is shared with the route side (lib/api/contract.ts decodes what this encodes).
export { decodeNodeSegment, encodeNodeSegment } from "@/lib/api/node-segment";
