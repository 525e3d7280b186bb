import { createFileRoute } from "@tanstack/react-router";

import { JudgesPage } from "@/features/jury-advice/judges-page";

export const Route = createFileRoute("/_authenticated/dashboard/judges")({
  component: JudgesPage,
});
