import type { IncomingMessage } from "node:http";

/** A request's body as text; past `maxBytes` the request is dropped with the caller's error. */
export function readBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(tooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
