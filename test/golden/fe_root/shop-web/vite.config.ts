import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// `npm run dev` serves the app on http://localhost:5173. Requests under /api/ go
// to the backend without the prefix, so the browser sees one origin and the backend needs
// no CORS setup: /api/notes → http://127.0.0.1:8000/notes.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      "/api/": {
        target: "http://127.0.0.1:8000",
        changeOrigin: true,
        rewrite: (path) => path.replace(/^\/api/, ""),
      },
    },
  },
});
