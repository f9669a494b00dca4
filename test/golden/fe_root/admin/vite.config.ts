import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// `npm run dev` serves the app on http://localhost:3000. Requests under /backend/v1/ go
// to the backend without the prefix, so the browser sees one origin and the backend needs
// no CORS setup: /backend/v1/notes → https://api.example.com:8443/notes.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      "/backend/v1/": {
        target: "https://api.example.com:8443",
        changeOrigin: true,
        rewrite: (path) => path.replace(/^\/backend\/v1/, ""),
      },
    },
  },
});
