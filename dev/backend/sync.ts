import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { convexToJson, jsonToConvex } from "convex/values";
import type { JSONValue, Value } from "convex/values";
import { WebSocket, WebSocketServer } from "ws";
import type { RawData } from "ws";
import type { CommittedWrite } from "./database.js";
import type { Engine, QueryEvaluator, QueryOutcome, Subscriber } from "./engine.js";
import type { ClientAddress, FunctionOutcome } from "./outcomes.js";
import type { ReadSet } from "./readSet.js";
import { clientAddressOf, describe } from "./outcomes.js";
import { TokenRejected } from "./identity.js";
import type { TokenVerifier, VerifiedIdentity } from "./identity.js";

// Client → server messages of the sync protocol (convex/src/browser/sync/protocol.ts).
type AddQuery = {
  type: "Add";
  queryId: number;
  udfPath: string;
  args: JSONValue[];
  journal?: string | null;
  componentPath?: string;
};
type RemoveQuery = { type: "Remove"; queryId: number };
type ClientMessage =
  | {
      type: "Connect";
      sessionId: string;
      connectionCount: number;
      lastCloseReason: string | null;
      clientTs?: number;
    }
  | {
      type: "ModifyQuerySet";
      baseVersion: number;
      newVersion: number;
      modifications: (AddQuery | RemoveQuery)[];
    }
  | FunctionRequest<"Mutation">
  | FunctionRequest<"Action">
  | {
      type: "Authenticate";
      tokenType: "User" | "Admin" | "None";
      value?: string;
      baseVersion: number;
    }
  | { type: "Event"; eventType: string; event: unknown };

type FunctionRequest<Type extends "Mutation" | "Action"> = {
  type: Type;
  requestId: number;
  udfPath: string;
  args: JSONValue[];
  componentPath?: string;
};

type StateModification =
  | {
      type: "QueryUpdated";
      queryId: number;
      value: JSONValue;
      logLines: string[];
      journal: string | null;
    }
  | {
      type: "QueryFailed";
      queryId: number;
      errorMessage: string;
      logLines: string[];
      errorData?: JSONValue;
      journal: string | null;
    }
  | { type: "QueryRemoved"; queryId: number };

type MutationResponse =
  | {
      type: "MutationResponse";
      requestId: number;
      success: true;
      result: JSONValue;
      ts: string;
      logLines: string[];
    }
  | {
      type: "MutationResponse";
      requestId: number;
      success: false;
      result: string;
      logLines: string[];
      errorData?: JSONValue;
    };

const PING_INTERVAL_MS = 15_000;
// Completed mutation responses kept per session, for clients that resend
// mutations after a reconnect (the protocol treats mutations as idempotent).
const REMEMBERED_MUTATIONS_PER_SESSION = 500;
const REMEMBERED_SESSIONS = 1000;

/** Timestamps travel as little-endian u64 in base64. */
export function encodeTs(ts: bigint): string {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(ts);
  return bytes.toString("base64");
}

function decodeArgs(args: JSONValue[] | JSONValue | undefined): Record<string, Value> {
  const first = Array.isArray(args) ? args[0] : args;
  const decoded = jsonToConvex(first ?? {});
  if (typeof decoded !== "object" || decoded === null || Array.isArray(decoded)) {
    throw new Error("The arguments to a Convex function must be an object.");
  }
  return decoded as Record<string, Value>;
}

function toModification(queryId: number, outcome: QueryOutcome): StateModification {
  if (outcome.success) {
    return {
      type: "QueryUpdated",
      queryId,
      value: convexToJson(outcome.value),
      logLines: [],
      journal: outcome.journal,
    };
  }
  return {
    type: "QueryFailed",
    queryId,
    errorMessage: outcome.errorMessage,
    logLines: [],
    ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
    journal: outcome.journal,
  };
}

/** Serves `/api/<version>/sync` WebSockets for one backend. */
export class SyncServer {
  private readonly webSockets = new WebSocketServer({ noServer: true });
  private readonly connections = new Set<SyncConnection>();
  /** sessionId → requestId → response (pending or done). */
  private readonly sessions = new Map<string, Map<number, Promise<MutationResponse>>>();

  constructor(
    readonly engine: Engine,
    readonly verifier: TokenVerifier,
    readonly log: (message: string) => void,
  ) {}

  /** Takes the upgrade if it is a sync request; returns false otherwise. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const { pathname } = new URL(request.url ?? "/", "http://localhost");
    if (!/^\/api\/[^/]+\/sync\/?$/.test(pathname)) return false;
    this.webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      const connection = new SyncConnection(this, webSocket, clientAddressOf(request));
      this.connections.add(connection);
      webSocket.on("close", () => {
        connection.dispose();
        this.connections.delete(connection);
      });
    });
    return true;
  }

  /** The response for a session's mutation, running it only the first time. */
  mutationResponse(
    sessionId: string | null,
    requestId: number,
    run: () => Promise<MutationResponse>,
  ): Promise<MutationResponse> {
    if (sessionId === null) return run();
    let session = this.sessions.get(sessionId);
    if (session === undefined) {
      session = new Map();
      this.sessions.set(sessionId, session);
      if (this.sessions.size > REMEMBERED_SESSIONS) {
        this.sessions.delete(this.sessions.keys().next().value!);
      }
    } else {
      // Map order doubles as recency order.
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, session);
    }
    const known = session.get(requestId);
    if (known !== undefined) return known;
    const response = run();
    session.set(requestId, response);
    if (session.size > REMEMBERED_MUTATIONS_PER_SESSION) {
      session.delete(session.keys().next().value!);
    }
    return response;
  }

  async close(): Promise<void> {
    for (const connection of this.connections) connection.terminate();
    await new Promise<void>((resolve) => this.webSockets.close(() => resolve()));
  }
}

type Subscription = {
  udfPath: string;
  args: Record<string, Value>;
  /** Pins the end cursor of a paginated query once its first page is known. */
  journal: string | null;
  /** The last modification sent, serialized, to send only changes. */
  lastSent: string | undefined;
  /** What its last run read: a commit outside it cannot change its result. */
  readSet: ReadSet | null;
};

/**
 * One client WebSocket. Versions follow the client's RemoteQuerySet: every
 * Transition starts at the version the previous one ended at; the query set
 * version is the client's after each ModifyQuerySet, the identity version
 * advances on each accepted Authenticate, and ts is the commit timestamp that
 * every subscribed query reflects.
 */
class SyncConnection implements Subscriber {
  private sessionId: string | null = null;
  private querySetVersion = 0;
  private identityVersion = 0;
  private ts = 0n;
  private identity: VerifiedIdentity | null = null;
  private readonly subscriptions = new Map<number, Subscription>();
  /** Work that reads or changes the versions, done one message at a time. */
  private lane: Promise<void> = Promise.resolve();
  /** A MutationResponse promised the client a Transition to at least this ts. */
  private pendingAckTs: bigint | null = null;
  private readonly pingTimer: ReturnType<typeof setInterval>;
  private disposed = false;

  constructor(
    private readonly server: SyncServer,
    private readonly webSocket: WebSocket,
    /** The client's address, which its mutations and actions see (ctx.meta.getRequestMetadata). */
    private readonly client: ClientAddress,
  ) {
    webSocket.on("message", (data: RawData) => this.receive(data));
    webSocket.on("error", (error) => server.log(`websocket error: ${error.message}`));
    this.pingTimer = setInterval(() => this.send({ type: "Ping" }), PING_INTERVAL_MS);
    this.pingTimer.unref();
    server.engine.addSubscriber(this);
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.pingTimer);
    this.server.engine.removeSubscriber(this);
  }

  terminate(): void {
    this.dispose();
    this.webSocket.terminate();
  }

  private send(message: object): void {
    if (this.webSocket.readyState === WebSocket.OPEN) {
      this.webSocket.send(JSON.stringify(message));
    }
  }

  private inLane(work: () => Promise<void> | void): Promise<void> {
    const run = this.lane.then(async () => {
      if (!this.disposed) await work();
    });
    this.lane = run.catch((error: unknown) => {
      this.server.log(`sync connection error: ${describe(error)}`);
    });
    return this.lane;
  }

  private receive(data: RawData): void {
    let message: ClientMessage;
    try {
      message = JSON.parse(data.toString()) as ClientMessage;
    } catch {
      this.server.log("ignoring a sync message that is not JSON");
      return;
    }
    switch (message.type) {
      case "Connect":
        this.sessionId = message.sessionId;
        return;
      case "ModifyQuerySet":
        void this.inLane(() => this.modifyQuerySet(message));
        return;
      case "Authenticate":
        void this.inLane(() => this.authenticate(message));
        return;
      case "Mutation":
      case "Action":
        // The identity is the one in force when the request arrived, after any
        // Authenticate sent before it; the function itself runs off the lane
        // so a slow action holds up nothing else.
        void this.inLane(() => {
          const identity = this.identity;
          if (identity?.expiresAt !== undefined && identity.expiresAt <= Date.now()) {
            this.send({
              type: "AuthError",
              error: "Token expired",
              baseVersion: this.identityVersion,
              authUpdateAttempted: false,
            });
            return;
          }
          if (message.type === "Mutation") void this.mutation(message, identity);
          else void this.action(message, identity);
        });
        return;
      case "Event":
        return;
      default:
        this.server.log(`ignoring unknown sync message ${JSON.stringify(message)}`);
    }
  }

  private evaluateNow: QueryEvaluator = (udfPath, args, identity, journal) =>
    this.server.engine.runSubscribedQuery(udfPath, args, identity, journal);

  private async evaluate(queryIds: Iterable<number>, evaluate: QueryEvaluator): Promise<StateModification[]> {
    const identity = this.identity?.identity ?? null;
    const modifications = await Promise.all(
      [...queryIds].map(async (queryId) => {
        const subscription = this.subscriptions.get(queryId)!;
        const outcome = await evaluate(subscription.udfPath, subscription.args, identity, subscription.journal);
        subscription.journal = outcome.journal;
        subscription.readSet = outcome.readSet;
        const modification = toModification(queryId, outcome);
        const { queryId: _, ...result } = modification;
        const serialized = JSON.stringify(result);
        if (serialized === subscription.lastSent) return null;
        subscription.lastSent = serialized;
        return modification;
      }),
    );
    return modifications.filter((modification) => modification !== null);
  }

  private sendTransition(
    modifications: StateModification[],
    end: { querySet?: number; identity?: number; ts?: bigint },
  ): void {
    const startVersion = {
      querySet: this.querySetVersion,
      identity: this.identityVersion,
      ts: encodeTs(this.ts),
    };
    this.querySetVersion = end.querySet ?? this.querySetVersion;
    this.identityVersion = end.identity ?? this.identityVersion;
    if (end.ts !== undefined && end.ts > this.ts) this.ts = end.ts;
    if (this.pendingAckTs !== null && this.ts >= this.pendingAckTs) {
      this.pendingAckTs = null;
    }
    this.send({
      type: "Transition",
      startVersion,
      endVersion: {
        querySet: this.querySetVersion,
        identity: this.identityVersion,
        ts: encodeTs(this.ts),
      },
      modifications,
    });
  }

  private async modifyQuerySet(message: Extract<ClientMessage, { type: "ModifyQuerySet" }>): Promise<void> {
    if (message.baseVersion !== this.querySetVersion) {
      this.server.log(
        `query set version mismatch: client at ${message.baseVersion}, server at ${this.querySetVersion}`,
      );
    }
    const removed: StateModification[] = [];
    const added: number[] = [];
    for (const modification of message.modifications) {
      if (modification.type === "Add") {
        let args: Record<string, Value> = {};
        try {
          args = decodeArgs(modification.args);
        } catch (error) {
          this.server.log(`bad query args: ${describe(error)}`);
        }
        this.subscriptions.set(modification.queryId, {
          udfPath: modification.udfPath,
          args,
          journal: modification.journal ?? null,
          lastSent: undefined,
          readSet: null,
        });
        added.push(modification.queryId);
      } else {
        this.subscriptions.delete(modification.queryId);
        removed.push({ type: "QueryRemoved", queryId: modification.queryId });
      }
    }
    const updated = await this.evaluate(
      added.filter((queryId) => this.subscriptions.has(queryId)),
      this.evaluateNow,
    );
    this.sendTransition([...updated, ...removed], { querySet: message.newVersion });
  }

  private async authenticate(message: Extract<ClientMessage, { type: "Authenticate" }>): Promise<void> {
    if (message.tokenType === "User") {
      try {
        this.identity = await this.server.verifier.verify(message.value ?? "");
      } catch (error) {
        const reason = error instanceof TokenRejected ? error.message : describe(error);
        this.send({
          type: "AuthError",
          error: reason,
          baseVersion: message.baseVersion,
          authUpdateAttempted: true,
        });
        // The connection is anonymous until a token is accepted.
        if (this.identity !== null) {
          this.identity = null;
          const changed = await this.evaluate(this.subscriptions.keys(), this.evaluateNow);
          if (changed.length > 0) this.sendTransition(changed, {});
        }
        return;
      }
    } else if (message.tokenType === "None") {
      this.identity = null;
    } else {
      this.send({
        type: "AuthError",
        error: "Admin authentication is not supported by the local backend",
        baseVersion: message.baseVersion,
        authUpdateAttempted: true,
      });
      return;
    }
    const changed = await this.evaluate(this.subscriptions.keys(), this.evaluateNow);
    // A Transition that advances the identity version confirms the token.
    this.sendTransition(changed, { identity: message.baseVersion + 1 });
  }

  syncTo(snapshotTs: bigint, evaluate: QueryEvaluator, writes: readonly CommittedWrite[] | null): Promise<void> {
    return this.inLane(async () => {
      if (snapshotTs > this.ts) {
        const affected = [...this.subscriptions].filter(
          ([, subscription]) =>
            writes === null || subscription.readSet === null || subscription.readSet.affectedBy(writes),
        );
        const changed = await this.evaluate(
          affected.map(([queryId]) => queryId),
          evaluate,
        );
        if (changed.length > 0 || this.pendingAckTs !== null) {
          this.sendTransition(changed, { ts: snapshotTs });
        }
      } else if (this.pendingAckTs !== null && this.ts >= this.pendingAckTs) {
        this.sendTransition([], {});
      }
    });
  }

  private async mutation(message: FunctionRequest<"Mutation">, identity: VerifiedIdentity | null): Promise<void> {
    const { engine } = this.server;
    const response = await this.server.mutationResponse(
      this.sessionId,
      message.requestId,
      async (): Promise<MutationResponse> => {
        let outcome: FunctionOutcome;
        try {
          outcome = await engine.runFunction(
            "mutation",
            message.udfPath,
            decodeArgs(message.args),
            identity?.identity ?? null,
            { client: this.client },
          );
        } catch (error) {
          outcome = { success: false, errorMessage: describe(error) };
        }
        if (!outcome.success) {
          return {
            type: "MutationResponse",
            requestId: message.requestId,
            success: false,
            result: outcome.errorMessage,
            logLines: [],
            ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
          };
        }
        // Read after the commit, so it covers this mutation's writes.
        const ts = await engine.snapshotTs();
        return {
          type: "MutationResponse",
          requestId: message.requestId,
          success: true,
          result: convexToJson(outcome.value),
          ts: encodeTs(ts),
          logLines: [],
        };
      },
    );
    if (this.disposed) return;
    this.send(response);
    if (response.success) {
      // The client resolves the mutation only once a Transition reaches its ts.
      const ts = Buffer.from(response.ts, "base64").readBigUInt64LE();
      if (this.pendingAckTs === null || ts > this.pendingAckTs) this.pendingAckTs = ts;
      engine.requestTransition(this);
    }
  }

  private async action(message: FunctionRequest<"Action">, identity: VerifiedIdentity | null): Promise<void> {
    let outcome: FunctionOutcome;
    try {
      outcome = await this.server.engine.runFunction(
        "action",
        message.udfPath,
        decodeArgs(message.args),
        identity?.identity ?? null,
        { client: this.client },
      );
    } catch (error) {
      outcome = { success: false, errorMessage: describe(error) };
    }
    this.send(
      outcome.success
        ? {
            type: "ActionResponse",
            requestId: message.requestId,
            success: true,
            result: convexToJson(outcome.value),
            logLines: [],
          }
        : {
            type: "ActionResponse",
            requestId: message.requestId,
            success: false,
            result: outcome.errorMessage,
            logLines: [],
            ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
          },
    );
  }
}
