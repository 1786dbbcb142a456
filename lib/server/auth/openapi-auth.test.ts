import { expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { authResponses as auth } from "./contract";
import type { UserView } from "./account-fields";
import type { ApiTokenView } from "./api-token-fields";
import type { SessionInfo } from "./get-session-info";
import type { createApiToken } from "./create-api-token";

type Doc<K extends keyof typeof auth> = z.infer<(typeof auth)[K]>;

it("the account schemas of the OpenAPI document accept the server's types (checked by tsc)", () => {
  expectTypeOf<UserView>().toExtend<Doc<"UserView">>();
  expectTypeOf<ApiTokenView>().toExtend<Doc<"ApiTokenView">>();
  expectTypeOf<SessionInfo>().toExtend<Doc<"SessionInfo">>();
  expectTypeOf<Awaited<ReturnType<typeof createApiToken>>>().toExtend<Doc<"CreatedApiToken">>();
});
