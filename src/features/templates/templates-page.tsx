import { Link } from "@tanstack/react-router";
import { useMutation, useQuery } from "convex/react";
import { LayoutTemplateIcon, LibraryIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";

import { SearchInput } from "@/components/search-input";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { EmptyState } from "@/components/empty-state";
import { ErrorState } from "@/components/error-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { type TemplateCategoryFilter } from "../../../convex/lib/templates";
import { TemplateCard } from "./template-card";
import { filterTemplates, type TemplateView } from "./template-filter";
import { CategoryFilter } from "./category-filter";

type Tab = "own" | "public";

export function TemplatesPage() {
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Templates</h1>
        <p className="text-muted-foreground">Your saved test setups, and the ones other users have shared.</p>
      </div>
      <QueryErrorBoundary
        fallback={(error, retry) => (
          <ErrorState title="Failed to load templates" message={errorMessage(error)} onRetry={retry} />
        )}
      >
        <TemplateLibrary />
      </QueryErrorBoundary>
    </div>
  );
}

function TemplateLibrary() {
  const own = useQuery(api.templates.listOwn);
  const publicTemplates = useQuery(api.templates.listPublic);
  const setVisibility = useMutation(api.templates.setVisibility);
  const removeTemplate = useMutation(api.templates.remove);
  const saveCopy = useMutation(api.templates.saveCopy);
  const [tab, setTab] = useState<Tab>("own");
  const [search, setSearch] = useState("");
  const [category, setCategory] = useState<TemplateCategoryFilter>("all");
  const [busyId, setBusyId] = useState<Id<"templates"> | null>(null);
  const [deleting, setDeleting] = useState<TemplateView | null>(null);

  async function toggleVisibility(template: TemplateView) {
    setBusyId(template._id);
    try {
      await setVisibility({ templateId: template._id, isPublic: !template.isPublic });
      toast.success(template.isPublic ? "Template is now private" : "Template is now public");
    } catch (error) {
      console.error("Failed to change template visibility", error);
      toast.error(errorMessage(error));
    } finally {
      setBusyId(null);
    }
  }

  async function copy(template: TemplateView) {
    setBusyId(template._id);
    try {
      await saveCopy({ templateId: template._id });
      toast.success("Saved a copy to My Templates");
    } catch (error) {
      console.error("Failed to copy template", error);
      toast.error(errorMessage(error));
    } finally {
      setBusyId(null);
    }
  }

  const filtering = search.trim() !== "" || category !== "all";

  function list(templates: readonly TemplateView[] | undefined, variant: Tab) {
    if (templates === undefined) {
      return (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy="true" aria-label="Loading templates">
          {Array.from({ length: 3 }, (_, index) => (
            <Skeleton key={index} className="h-52 rounded-xl" />
          ))}
        </div>
      );
    }
    const shown = filterTemplates(templates, search, category);
    if (shown.length === 0) {
      return variant === "own" ? (
        <EmptyState
          icon={LayoutTemplateIcon}
          title="No Personal Templates"
          description={
            filtering && templates.length > 0
              ? "No template matches your search or category."
              : "Build a test in Test Setup and use Save Template to keep it here."
          }
          action={
            templates.length === 0 ? (
              <Button asChild variant="outline">
                <Link to="/dashboard/setup">Go to Test Setup</Link>
              </Button>
            ) : undefined
          }
        />
      ) : (
        <EmptyState
          icon={LibraryIcon}
          title="No Public Templates Found"
          description={
            filtering && templates.length > 0
              ? "No public template matches your search or category."
              : "No one has shared a template yet. Make one of yours public to start the library."
          }
        />
      );
    }
    return (
      <ul
        className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
        aria-label={variant === "own" ? "My templates" : "Public templates"}
      >
        {shown.map((template) => (
          <TemplateCard
            key={template._id}
            template={template}
            variant={variant}
            busy={busyId === template._id}
            onToggleVisibility={() => void toggleVisibility(template)}
            onDelete={() => setDeleting(template)}
            onSaveCopy={() => void copy(template)}
          />
        ))}
      </ul>
    );
  }

  return (
    <>
      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)} className="gap-4">
        <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
          <TabsList>
            <TabsTrigger value="own">My Templates ({own?.length ?? 0})</TabsTrigger>
            <TabsTrigger value="public">Public Library ({publicTemplates?.length ?? 0})</TabsTrigger>
          </TabsList>
          <SearchInput
            className="w-full lg:max-w-sm"
            type="search"
            label="Search templates"
            placeholder="Search by name, description or tags..."
            value={search}
            onSearch={setSearch}
          />
        </div>
        <CategoryFilter label="Filter by category" value={category} onChange={setCategory} />
        <TabsContent value="own">{list(own, "own")}</TabsContent>
        <TabsContent value="public">{list(publicTemplates, "public")}</TabsContent>
      </Tabs>
      {/* Spec part 2 §4: idle, then deleting (close and cancel disabled); closes only on success. */}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Template"
        description="Are you sure you want to delete this template? This action cannot be undone."
        subject={deleting?.name}
        confirmText="Delete"
        destructive
        loadingText="Deleting..."
        loadingLabel="Deleting"
        failureText="Failed to delete template. Please try again."
        onConfirm={async () => {
          if (!deleting) return;
          await removeTemplate({ templateId: deleting._id });
          toast.success("Template deleted");
        }}
      />
    </>
  );
}
