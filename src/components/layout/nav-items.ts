import {
  ACCOUNT_SETTINGS_PATH,
  ADMIN_PATH,
  BILLING_PATH,
  HISTORY_PATH,
  MONITOR_PAGE_PATH,
  SETUP_PATH,
  TEMPLATES_PATH,
  USAGE_SECTION_ID,
} from "@/lib/paths";
import { ActivityIcon, FlaskConicalIcon, HistoryIcon, LayoutTemplateIcon, ShieldIcon, type LucideIcon } from "lucide-react";

export interface NavItem {
  label: string;
  /** A path; later issues add the routes these lead to. */
  to: string;
  icon: LucideIcon;
}

export const MAIN_NAV_ITEMS: readonly NavItem[] = [
  { label: "Test Setup", to: SETUP_PATH, icon: FlaskConicalIcon },
  { label: "Monitor", to: MONITOR_PAGE_PATH, icon: ActivityIcon },
  { label: "History", to: HISTORY_PATH, icon: HistoryIcon },
  { label: "Templates", to: TEMPLATES_PATH, icon: LayoutTemplateIcon },
];

export const ADMIN_NAV_ITEM: NavItem = { label: "Admin", to: ADMIN_PATH, icon: ShieldIcon };

export { ACCOUNT_SETTINGS_PATH, BILLING_PATH, USAGE_SECTION_ID };

/** The bar's items; Admin only when the profile says so (the server checks again on every call). */
export function navItemsFor(viewer: { isAdmin: boolean } | null | undefined): readonly NavItem[] {
  return viewer?.isAdmin ? [...MAIN_NAV_ITEMS, ADMIN_NAV_ITEM] : MAIN_NAV_ITEMS;
}
