// The dev gateway on a thread of its own, for benches that time the pipeline: a real gateway
// answers on someone else's machine, so its work (building replies, its HTTP server) should not
// queue behind the backend's on this process's one event loop. Its call counters are mirrored
// into shared memory every millisecond; its settings change through POST /__settings.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { startGateway, type GatewayOptions } from "../dev/gateway/server";

/** Slots of the shared counters. */
const CHAT_CALLS = 0;
const IN_FLIGHT = 1;

export interface ThreadGateway {
  url: string;
  /** The gateway's counters as last mirrored (at most about 1 ms old). */
  stats: { readonly chatCalls: number; readonly inFlight: number };
  /** Merges settings into the gateway's (its POST /__settings). */
  configure(settings: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startThreadGateway(options: GatewayOptions): Promise<ThreadGateway> {
  const shared = new Int32Array(new SharedArrayBuffer(8));
  // The thread loads this file through tsx's loader, as the bench itself is loaded.
  const bootstrap = `import { register } from ${JSON.stringify(import.meta.resolve("tsx/esm/api"))}; register(); await import(${JSON.stringify(import.meta.url)});`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), {
    workerData: { options, shared },
  });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once("message", (message: { url: string }) => resolve(message.url));
    worker.once("error", reject);
  });
  return {
    url,
    stats: {
      get chatCalls() {
        return Atomics.load(shared, CHAT_CALLS);
      },
      get inFlight() {
        return Atomics.load(shared, IN_FLIGHT);
      },
    },
    async configure(settings) {
      const response = await fetch(`${url.replace(/\/api\/v1\/?$/, "")}/__settings`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(settings),
      });
      if (!response.ok) throw new Error(`gateway settings: ${response.status} ${await response.text()}`);
    },
    async close() {
      await worker.terminate();
    },
  };
}

if (!isMainThread && parentPort) {
  const { options, shared } = workerData as { options: GatewayOptions; shared: Int32Array };
  const gateway = await startGateway(options);
  setInterval(() => {
    Atomics.store(shared, CHAT_CALLS, gateway.stats.chatCalls);
    Atomics.store(shared, IN_FLIGHT, gateway.stats.inFlight);
  }, 1);
  parentPort.postMessage({ url: gateway.url });
}
