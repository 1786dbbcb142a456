import { getDb } from "../db/db";
import { toUserView, userSelect } from "./account-fields";
import type { UserView } from "./account-fields";

export async function findUsers(): Promise<UserView[]> {
  const rows = await getDb().user.findMany({ select: userSelect, orderBy: { username: "asc" } });
  return rows.map(toUserView);
}
