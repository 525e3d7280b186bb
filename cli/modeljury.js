#!/usr/bin/env node
// `npx modeljury …` (package.json "bin"): runs the TypeScript runner through tsx.
import { register } from "tsx/esm/api";

register();
await import("./modeljury.ts");
