// The npm packages a new front end starts with, pinned to versions that install and work
// together on Node.js 20.19+ and 22.12+ (Vite 8's range). The end-to-end tests install
// exactly these, then type-check and build the project.

/**
 * Runtime dependencies; TanStack Query only when the config asks for it, and with it React
 * Router, which the generated pages (they need TanStack Query) route with.
 */
export function dependencies(options: { tanstackQuery: boolean }): Record<string, string> {
  return {
    ...(options.tanstackQuery && { "@tanstack/react-query": "5.108.0" }),
    react: "19.3.1",
    "react-dom": "19.3.1",
    // React Router's declarative API; 7.x is the line that runs on Node.js 20.
    ...(options.tanstackQuery && { "react-router": "7.18.5" }),
  };
}

/**
 * Build tools. @hey-api/openapi-ts 0.95 is the last release running on Node.js 20 (0.96
 * needs 22.13); TypeScript stays on 5.9, whose compiler API openapi-ts drives.
 */
export const DEV_DEPENDENCIES: Readonly<Record<string, string>> = {
  "@hey-api/openapi-ts": "0.95.0",
  "@types/react": "19.3.0",
  "@types/react-dom": "19.3.0",
  "@vitejs/plugin-react": "6.3.0",
  // The same version codegen formats generated files with: `npm run format:check` passes on them.
  prettier: "3.10.1",
  typescript: "5.9.3",
  vite: "8.3.8",
};

/** Node.js versions the pinned tools support (Vite 8's `engines`). */
export const NODE_ENGINES = "^20.19.0 || >=22.12.0";
