// Lint = typescript-eslint's type-aware recommended rules + the layering we depend on:
// lib/ is framework-free (no next, react, prisma, process.env outside lib/server),
// components/ never reach into the server layer.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

const frameworkImports = [
  { group: ["next", "next/*"], message: "lib/ is framework-free: keep Next.js in app/." },
  { group: ["react", "react-dom", "react/*"], message: "lib/ is framework-free: keep React in components/." },
  { group: ["@prisma/*", "**/generated/prisma/*", "better-sqlite3"], message: "lib/ is pure: database access lives in lib/server/." },
  { group: ["**/server/*", "../server/*"], message: "lib/ must not depend on lib/server/." },
];

export default tseslint.config(
  { ignores: [".next/**", "dist/**", "node_modules/**", "lib/server/db/generated/**", "e2e/.tmp/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["*.mjs", "bin/*.mjs", "e2e/*.mjs", "scripts/*.mjs"] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    files: ["lib/**/*.ts"],
    ignores: ["lib/server/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: frameworkImports }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "lib/ takes configuration as arguments; read env in lib/server/." }],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Types may be shared (they vanish at build time); code from the server layer may not.
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/lib/server/*", "@/lib/server/*"], allowTypeImports: true, message: "components/ get data through app/ routes, not lib/server (import type is fine)." }] },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
