import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

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

/**
 * Starts `server` on host:port (0: any free port), keeping track of its connections. Gives the
 * port it got, its origin (an IPv6 host in brackets) and a close that also ends held-open and
 * keep-alive connections, so they do not delay shutdown.
 */
export async function listenTracked(server: Server, host: string, port: number) {
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    port: actualPort,
    origin: `http://${host.includes(":") ? `[${host}]` : host}:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      }),
  };
}
