import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  environments: {
    ssr: {
      build: {
        rollupOptions: {
          // The server build is our Express app, which embeds the React Router handler.
          input: "./server/app.ts",
        },
      },
    },
  },
  ssr: {
    // Native and Node-only packages stay external in the server bundle.
    external: ["sharp", "better-auth", "pino", "pino-pretty", "pino-http"],
  },
});
