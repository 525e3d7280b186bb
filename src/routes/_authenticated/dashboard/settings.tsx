import { createFileRoute } from "@tanstack/react-router";

import { AccountSettingsPage } from "@/features/account/account-settings-page";

export const Route = createFileRoute("/_authenticated/dashboard/settings")({
  component: AccountSettingsPage,
});
