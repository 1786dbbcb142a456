/**
 * The race suite's side of HTTP: the real built server started on a free port against a fresh
 * database, and people signed in the way a browser signs in (the first-admin set-up, accounts
 * created by the admin, POST /api/auth/login), each keeping its session cookie and echoing its
 * CSRF token in X-CSRF-Token on every write.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export const PASSWORD = "race suite password 1";

export interface Session {
  username: string;
  cookie: string;
  csrf: string;
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T & { error?: { code: string; message: string; refusal?: string; cause?: string } };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
  /** The server's output so far (shown when something fails). */
  log(): string;
}

/** `next start` of the existing production build; refuses when there is none. */
export async function startServer(options: { root: string; databaseUrl: string }): Promise<RunningServer> {
  if (!fs.existsSync(path.join(options.root, ".next", "BUILD_ID"))) throw new Error("no production build: run `npm run build` before `npm run test:races`");
  const port = await freePort();
  const next = path.join(options.root, "node_modules", ".bin", "next");
  let output = "";
  const child: ChildProcess = spawn(next, ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: options.root,
    env: { ...process.env, DATABASE_URL: options.databaseUrl, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/auth/session`);
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`the server did not answer within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    log: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

function cookiesOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair?.indexOf("=") ?? -1;
    if (pair && eq > 0) out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

export class Client {
  constructor(readonly baseUrl: string) {}

  async call<T = Record<string, unknown>>(session: Session | null, method: string, url: string, body?: unknown): Promise<Answer<T>> {
    const headers: Record<string, string> = { origin: this.baseUrl };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (session) {
      headers.cookie = session.cookie;
      headers["x-csrf-token"] = session.csrf;
    }
    const res = await fetch(`${this.baseUrl}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { error: { code: "NOT_JSON", message: text.slice(0, 200) } };
    }
    return { status: res.status, body: parsed as Answer<T>["body"] };
  }

  private async sessionFrom(username: string, res: Response): Promise<Session> {
    const text = await res.text();
    if (res.status >= 300) throw new Error(`signing in ${username} failed (${res.status}): ${text.slice(0, 300)}`);
    const cookies = cookiesOf(res);
    const secret = cookies.refinery_session;
    const csrf = cookies.refinery_csrf;
    if (!secret || !csrf) throw new Error(`signing in ${username} set no session cookies`);
    return { username, cookie: `refinery_session=${secret}; refinery_csrf=${csrf}`, csrf };
  }

  async setUp(username: string): Promise<Session> {
    const res = await fetch(`${this.baseUrl}/api/auth/setup`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: this.baseUrl },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    return this.sessionFrom(username, res);
  }

  async signIn(username: string): Promise<Session> {
    const res = await fetch(`${this.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: this.baseUrl },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    return this.sessionFrom(username, res);
  }
}

/** Throws with the answer when the status is not the expected one (set-up steps). */
export function expectStatus<T>(answer: Answer<T>, status: number, what: string): Answer<T> {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body).slice(0, 400)}`);
  return answer;
}
