import { createFileRoute } from "@tanstack/react-router";

import { preloadBackend } from "@/components/backend-boundary";
import { ContactPage } from "@/features/contact/contact-page";

export const Route = createFileRoute("/contact")({
  staticData: { backend: true },
  beforeLoad: preloadBackend,
  component: ContactPage,
});
