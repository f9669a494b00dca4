import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ComponentType, StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { App } from "./App";

const container = document.getElementById("root");
if (container === null)
  throw new Error('index.html has no element with id "root"');

// The pages `codegen generate --target fe` writes into src/generated/ (with `pages` in
// config/fe.jsonnet) replace the starter page as soon as they exist.
const generated = import.meta.glob<{ GeneratedApp: ComponentType }>(
  "./generated/App.tsx",
  { eager: true },
);
const Root = Object.values(generated)[0]?.GeneratedApp ?? App;

// One query cache for the whole app; the generated TanStack Query helpers use it. A failed
// query is tried again at most once, soon, and never after a 4xx: a missing row or a refusal
// answers the same the second time, and the reader should see it at once.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => failures < 1 && !isClientError(error),
      retryDelay: 300,
    },
  },
});

/** Whether `error` carries a 4xx status (the generated pages' `ApiError` does). */
function isClientError(error: unknown): boolean {
  const status =
    typeof error === "object" && error !== null && "status" in error
      ? error.status
      : undefined;
  return typeof status === "number" && status >= 400 && status < 500;
}

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Root />
    </QueryClientProvider>
  </StrictMode>,
);
