import { createContext, useContext } from "react";

// The landing page is rendered to HTML when it is built (vite.config.ts) and shipped with a small
// script instead of React (src/landing-main.ts). Its few parts that depend on the visitor (signed
// in or not, light or dark) then render every variant, marked for that script to choose from.

export const StaticMarkupContext = createContext(false);

export function useStaticMarkup(): boolean {
  return useContext(StaticMarkupContext);
}

export {
  SESSION_VIEW_ATTRIBUTE,
  SIGNED_IN_HREF_ATTRIBUTE,
  THEME_TOGGLE_ATTRIBUTE,
} from "@/features/marketing/static-markup-attributes";
