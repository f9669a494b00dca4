import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

// Requests under /api/ go to the backend without the prefix, so the browser sees
// one origin and the backend needs no CORS setup: /api/notes → http://127.0.0.1:8000/notes.
// A backend that does not answer gets 502 Bad Gateway, as from a production proxy.
const api: ProxyOptions = {
  target: "http://127.0.0.1:8000",
  changeOrigin: true,
  rewrite: (path) => path.replace(/^\/api/, ""),
};

// `npm run dev` serves the app on http://localhost:5173; `npm run preview` serves the
// production build (dist/) with the same proxy.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: { "/api/": api },
  },
  preview: {
    proxy: { "/api/": api },
  },
});
