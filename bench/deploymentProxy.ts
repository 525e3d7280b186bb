// The proxy bench/deployment.ts puts in front of the gateway: it times each call of a bench test
// ('Bench test N:' in its prompt) from its request to the end of its answer (a streamed answer's
// last byte), and passes a client's disconnect on to the gateway, which cancels its stream.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Each gateway call's test, kind (by model: the judges' ids are in `judgeModels`) and duration. */
export type CallTiming = { test: number; judge: boolean; ms: number; status: number; endedAt: number };

export async function startTimingProxy(target: URL, timings: CallTiming[], judgeModels: ReadonlySet<string>) {
  const proxy = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const text = body.toString("utf8");
      const marker = /Bench test (\d+):/.exec(text);
      const model = /"model"\s*:\s*"([^"]+)"/.exec(text)?.[1];
      const began = performance.now();
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (reply) => {
          outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(outgoing);
          reply.on("end", () => {
            if (marker && model) {
              timings.push({
                test: Number(marker[1]),
                judge: judgeModels.has(model),
                ms: performance.now() - began,
                status: reply.statusCode ?? 502,
                endedAt: performance.now(),
              });
            }
          });
        },
      );
      forwarded.on("error", () => outgoing.destroy());
      // A client that leaves (a killed action) leaves the gateway too.
      outgoing.on("close", () => {
        if (!outgoing.writableFinished) forwarded.destroy();
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const url = new URL(target.href);
  url.port = String((proxy.address() as AddressInfo).port);
  return { url: url.href.replace(/\/$/, ""), close: () => proxy.close() };
}
