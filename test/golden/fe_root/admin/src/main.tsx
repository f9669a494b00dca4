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

createRoot(container).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
