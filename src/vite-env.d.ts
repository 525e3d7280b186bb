/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Convex deployment the app talks to (cloud, self-hosted or the offline dev backend). */
  readonly VITE_CONVEX_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
