import convexPlugin from "@convex-dev/eslint-plugin";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Public Convex functions must come from convex/functions.ts, which checks who is calling.
export const builderRule = {
  "no-restricted-imports": [
    "error",
    {
      paths: ["./_generated/server", "../_generated/server"].map((name) => ({
        name,
        importNames: ["query", "mutation", "action", "internalQuery", "internalMutation", "internalAction"],
        message: "Build Convex functions with the access builders in convex/functions.ts.",
      })),
    },
  ],
};

export default tseslint.config(
  {
    ignores: ["dist", "node_modules", "convex/_generated", "src/routeTree.gen.ts", "bench/.out", "dev/.data", ".vite"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  { files: ["**/*.js"], ...tseslint.configs.disableTypeChecked },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  ...convexPlugin.configs.recommended,
  { files: ["convex/**/*.ts"], ignores: ["convex/functions.ts"], rules: builderRule },
  // Tests set the deployment's environment for the code under test.
  {
    files: ["convex/**/*.test.ts", "convex/**/*.helpers.ts", "convex/**/*.fixture.ts"],
    rules: { "@convex-dev/no-process-env": "off" },
  },
);
