/**
 * auth/ — people and tokens on the server: accounts, sign-in with its rate limits, sessions and
 * their cookies, API tokens, CSRF, and `authenticateRequest`, which turns a request into an Actor
 * (the permission rules themselves are pure: lib/auth). Routes import its files directly.
 */
export * from "./authenticate-request";
export * from "./get-session-actor";
export * from "./get-token-actor";
export * from "./contract";
