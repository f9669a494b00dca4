/**
 * Free TCP ports for servers started by tests.
 *
 * The port is free when this resolves; a test binds it right away, so the window
 * for another process to take it is small.
 */
import { createServer } from "node:net";

/** Resolve a port that nothing listens on at 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("could not read the port of a listening socket"));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
