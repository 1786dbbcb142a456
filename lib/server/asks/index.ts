/**
 * asks/ — Ask (Graph-RFT planned reasoning): asks stored like runs (asks.ts) and "ask again" of a
 * proposal's question on the version before and after its edits (ask-again.ts).
 */
export * from "./asks";
export * from "./contract";
