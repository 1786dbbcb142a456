/**
 * When two proposed actions are copies of one another: the same kind of change with the same
 * names and relation, as written (surrounding and repeated spaces aside). Case is kept — a
 * graph may hold `Client` and `client` as different nodes — so copies spelled differently stay
 * separate rows until one applies; then the other is moot and becomes obsolete
 * (lib/changes/find-moot-reason.ts), which catches every spelling that resolves to one node.
 */
import type { RefinementAction } from "../loop/types";

function tidy(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

/** A string equal for copies of one action and different otherwise (NUL never occurs in a name). */
export function actionKey(action: RefinementAction): string {
  const parts = action.type === "replace_node" ? [action.old, action.new] : [action.subject, action.relation, action.object];
  return [action.type, ...parts.map(tidy)].join("\u0000");
}
