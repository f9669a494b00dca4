import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

// Requests under /backend/v1/ go to the backend without the prefix, so the browser sees
// one origin and the backend needs no CORS setup: /backend/v1/notes → https://api.example.com:8443/notes.
// A backend that does not answer gets 502 Bad Gateway, as from a production proxy.
const api: ProxyOptions = {
  target: "https://api.example.com:8443",
  changeOrigin: true,
  rewrite: (path) => path.replace(/^\/backend\/v1/, ""),
};

// `npm run dev` serves the app on http://localhost:3000; `npm run preview` serves the
// production build (dist/) with the same proxy.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 3000,
    strictPort: true,
    proxy: { "/backend/v1/": api },
  },
  preview: {
    proxy: { "/backend/v1/": api },
  },
});
