import { getDb } from "../db/db";

/** True until the first account exists: then the first visitor must create the admin. */
export async function isSetupNeeded(): Promise<boolean> {
  return (await getDb().user.count()) === 0;
}
