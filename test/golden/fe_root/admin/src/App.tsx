import { useEffect, useState } from "react";

const TITLE = "Acme admin";
const SPEC_URL = "/backend/v1/openapi.json";

/** The backend as this page sees it, through the proxy at /backend/v1/. */
type Backend =
  | { status: "loading" }
  | { status: "up"; title: string; version: string; paths: string[] }
  | { status: "no-proxy"; answer: string }
  | { status: "down"; answer: string };

interface OpenApiDocument {
  info: { title: string; version: string };
  paths: Record<string, unknown>;
}

/**
 * Who answered GET "/backend/v1/openapi.json": the backend (JSON), a proxy whose backend is stopped (502,
 * 503, 504), or the server of this page itself, because nothing routes /backend/v1/ to the
 * backend (a 404, or index.html served for every path).
 */
function diagnose(response: Response): "up" | "no-proxy" | "down" {
  const type = response.headers.get("content-type") ?? "";
  if (response.ok && type.includes("json")) return "up";
  if ([502, 503, 504].includes(response.status)) return "down";
  if (response.status === 404 || type.includes("text/html")) return "no-proxy";
  return "down";
}

/** Reads the backend's OpenAPI document: proof that the proxy and the backend both work. */
function useBackend(): Backend {
  const [backend, setBackend] = useState<Backend>({ status: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    fetch(SPEC_URL, { signal: controller.signal })
      .then(async (response) => {
        const answer = `${response.status} ${response.statusText}`.trim();
        const status = diagnose(response);
        if (status !== "up") {
          setBackend({ status, answer });
          return;
        }
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
        const answer = error instanceof Error ? error.message : String(error);
        setBackend({ status: "down", answer });
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
      {backend.status === "no-proxy" && (
        <p role="alert">
          Nothing passes <code>/backend/v1/</code> to the backend:{" "}
          <code>{SPEC_URL}</code> was answered by the server of this page (
          {backend.answer}). `npm run dev` and `npm run preview` proxy it
          (vite.config.ts); in production, route <code>/backend/v1/</code> to
          the backend.
        </p>
      )}
      {backend.status === "down" && (
        <p role="alert">
          The backend does not answer behind <code>/backend/v1/</code> (
          {backend.answer}). Start it (https://api.example.com:8443 in
          development), then reload.
        </p>
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
        Save the backend's OpenAPI document as <code>openapi.json</code>, then
        run <code>codegen generate --target fe --config config/fe.jsonnet</code>{" "}
        and <code>npm run openapi-ts</code>: the generated pages replace this
        one.
      </p>
    </main>
  );
}
