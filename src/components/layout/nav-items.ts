import type { LinkProps } from "@tanstack/react-router";
import {
  ActivityIcon,
  FlaskConicalIcon,
  HistoryIcon,
  LayoutTemplateIcon,
  ShieldIcon,
  type LucideIcon,
} from "lucide-react";

export interface NavItem {
  label: string;
  /** A route of the app: a path the route tree does not have fails the typecheck. */
  to: LinkProps["to"];
  icon: LucideIcon;
}

export const MAIN_NAV_ITEMS: readonly NavItem[] = [
  { label: "Test Setup", to: "/dashboard/setup", icon: FlaskConicalIcon },
  { label: "Monitor", to: "/dashboard/monitor", icon: ActivityIcon },
  { label: "History", to: "/dashboard/history", icon: HistoryIcon },
  { label: "Templates", to: "/dashboard/templates", icon: LayoutTemplateIcon },
];

export const ADMIN_NAV_ITEM: NavItem = { label: "Admin", to: "/admin", icon: ShieldIcon };

/** The bar's items; Admin only when the profile says so (the server checks again on every call). */
export function navItemsFor(viewer: { isAdmin: boolean } | null | undefined): readonly NavItem[] {
  return viewer?.isAdmin ? [...MAIN_NAV_ITEMS, ADMIN_NAV_ITEM] : MAIN_NAV_ITEMS;
}
