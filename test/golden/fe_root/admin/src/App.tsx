import { useEffect, useState } from "react";

const TITLE = "Acme admin";

/** The backend as this page sees it, through the dev server's proxy at /backend/v1. */
type Backend =
  | { status: "loading" }
  | { status: "up"; title: string; version: string; paths: string[] }
  | { status: "down"; reason: string };

interface OpenApiDocument {
  info: { title: string; version: string };
  paths: Record<string, unknown>;
}

/** Reads the backend's OpenAPI document: proof that the proxy and the backend both work. */
function useBackend(): Backend {
  const [backend, setBackend] = useState<Backend>({ status: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    fetch("/backend/v1/openapi.json", { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`it answered ${response.status} ${response.statusText}`);
        const document = (await response.json()) as OpenApiDocument;
        setBackend({
          status: "up",
          title: document.info.title,
          version: document.info.version,
          paths: Object.keys(document.paths).sort(),
        });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setBackend({ status: "down", reason: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, []);
  return backend;
}

export function App() {
  const backend = useBackend();
  return (
    <main>
      <h1>{TITLE}</h1>
      {backend.status === "loading" && <p>Reaching the backend…</p>}
      {backend.status === "down" && (
        <p>The backend is not reachable ({backend.reason}). Start it, then reload.</p>
      )}
      {backend.status === "up" && (
        <>
          <p>
            Connected to {backend.title} {backend.version}. Its routes:
          </p>
          <ul>
            {backend.paths.map((path) => (
              <li key={path}>
                <code>{path}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        Write the typed client with <code>npm run openapi-ts</code>, then call the backend
        through the functions <code>src/client</code> exports.
      </p>
    </main>
  );
}
