import { useMutation, useQuery } from "convex/react";
import { EyeIcon, EyeOffIcon, GlobeIcon, LockIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { notify } from "./notify";

import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/empty-state";
import { Spinner } from "@/components/spinner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { templateCategoryLabel, type TemplateCategoryFilter } from "../../../convex/lib/templates";
import { settleQuestionText } from "../../../convex/lib/settleWords";
import { DestructiveConfirmDialog } from "@/components/confirm-dialog";
import type { SavedTemplate } from "./template-sources";
import { CategoryFilter } from "@/features/templates/category-filter";

export const DELETE_TEMPLATE_MESSAGE = "Are you sure you want to delete this template?";
export const DELETE_TEMPLATE_FAILED = "Failed to delete template. Please try again.";
const TAGS_SHOWN = 3;

interface TemplateLibraryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onApply: (template: SavedTemplate) => void;
}

type Tab = "own" | "public";

/** The Template Library: my templates and the public library, with search, filter, preview and apply. */
export function TemplateLibraryDialog({ open, onOpenChange, onApply }: TemplateLibraryDialogProps) {
  const own = useQuery(api.templates.listOwn, open ? {} : "skip");
  const publicTemplates = useQuery(api.templates.listPublic, open ? {} : "skip");
  const removeTemplate = useMutation(api.templates.remove);
  const setVisibility = useMutation(api.templates.setVisibility);
  const [tab, setTab] = useState<Tab>("own");
  const [search, setSearch] = useState("");
  const [category, setCategory] = useState<TemplateCategoryFilter>("all");
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SavedTemplate | null>(null);

  const needle = search.trim().toLowerCase();
  const matches = (template: SavedTemplate) =>
    (category === "all" || template.category === category) &&
    (!needle ||
      template.name.toLowerCase().includes(needle) ||
      template.description.toLowerCase().includes(needle) ||
      template.tags.some((tag) => tag.toLowerCase().includes(needle)));

  async function toggleVisibility(template: SavedTemplate) {
    try {
      await setVisibility({ templateId: template._id, isPublic: !template.isPublic });
      notify.success(template.isPublic ? "Template is now private" : "Template is now public");
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  function renderList(templates: readonly SavedTemplate[] | undefined, emptyTitle: string, emptyText: string) {
    if (templates === undefined) {
      return (
        <div className="flex justify-center py-10">
          <Spinner className="size-6" label="Loading templates" />
        </div>
      );
    }
    const shown = templates.filter(matches);
    if (shown.length === 0) {
      return (
        <EmptyState
          title={emptyTitle}
          description={templates.length === 0 ? emptyText : "No template matches your search."}
        />
      );
    }
    return (
      <ul className="grid max-h-[55dvh] gap-3 overflow-y-auto pr-1 md:grid-cols-2" aria-label="Saved templates">
        {shown.map((template) => (
          <TemplateCard
            key={template._id}
            template={template}
            previewing={previewId === template._id}
            onPreview={() => setPreviewId(previewId === template._id ? null : template._id)}
            onApply={() => onApply(template)}
            onDelete={() => setDeleting(template)}
            onToggleVisibility={() => void toggleVisibility(template)}
          />
        ))}
      </ul>
    );
  }

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="sm:max-w-4xl">
          <DialogHeader>
            <DialogTitle>Template Library</DialogTitle>
            <DialogDescription>Your saved templates and the ones other users have shared.</DialogDescription>
          </DialogHeader>
          <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)} className="gap-4">
            <TabsList>
              <TabsTrigger value="own">My Templates ({own?.length ?? 0})</TabsTrigger>
              <TabsTrigger value="public">Public Library ({publicTemplates?.length ?? 0})</TabsTrigger>
            </TabsList>
            <div className="flex flex-wrap items-center gap-2">
              <SearchInput
                className="min-w-48 flex-1"
                label="Search templates"
                placeholder="Search by name, description or tags..."
                value={search}
                onSearch={setSearch}
              />
              <CategoryFilter label="Template library categories" value={category} onChange={setCategory} />
            </div>
            <TabsContent value="own">
              {renderList(own, "No Personal Templates", "Save your setup with Save Template to reuse it here.")}
            </TabsContent>
            <TabsContent value="public">
              {renderList(publicTemplates, "No Public Templates Found", "No one has shared a template yet.")}
            </TabsContent>
          </Tabs>
        </DialogContent>
      </Dialog>
      <DestructiveConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete Template"
        description={DELETE_TEMPLATE_MESSAGE}
        subject={deleting?.name}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await removeTemplate({ templateId: deleting._id });
            notify.success("Template deleted");
          } catch {
            notify.error(DELETE_TEMPLATE_FAILED);
          }
        }}
      />
    </>
  );
}

interface TemplateCardProps {
  template: SavedTemplate;
  previewing: boolean;
  onPreview: () => void;
  onApply: () => void;
  onDelete: () => void;
  onToggleVisibility: () => void;
}

function TemplateCard({ template, previewing, onPreview, onApply, onDelete, onToggleVisibility }: TemplateCardProps) {
  const { templateData: data } = template;
  const extraTags = template.tags.length - TAGS_SHOWN;
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-4" data-testid="library-template-card">
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="font-semibold break-words">{template.name}</p>
          <p className="line-clamp-2 text-sm break-words text-muted-foreground">{template.description}</p>
        </div>
        <Badge variant="secondary">{templateCategoryLabel(template.category)}</Badge>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span>
          {data.personas.length} persona{data.personas.length === 1 ? "" : "s"} · {data.topics.length} topic
          {data.topics.length === 1 ? "" : "s"}
        </span>
        <span>
          · Used {template.usageCount} time{template.usageCount === 1 ? "" : "s"}
        </span>
        {template.isOwn && (
          <span className="inline-flex items-center gap-1">
            ·{" "}
            {template.isPublic ? (
              <GlobeIcon aria-hidden="true" className="size-3" />
            ) : (
              <LockIcon aria-hidden="true" className="size-3" />
            )}
            {template.isPublic ? "Public" : "Private"}
          </span>
        )}
      </div>
      {template.tags.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label="Tags">
          {template.tags.slice(0, TAGS_SHOWN).map((tag) => (
            <li key={tag}>
              <Badge variant="outline">{tag}</Badge>
            </li>
          ))}
          {extraTags > 0 && (
            <li>
              <Badge variant="outline">+{extraTags}</Badge>
            </li>
          )}
        </ul>
      )}
      {previewing && (
        <div className="space-y-2 rounded-md bg-muted/50 p-3 text-sm" data-testid="template-preview">
          <div>
            <p className="text-xs font-medium text-muted-foreground">Personas</p>
            <ul className="list-inside list-disc">
              {data.personas.map((persona, index) => (
                <li key={index}>{persona.name}</li>
              ))}
            </ul>
          </div>
          <div>
            <p className="text-xs font-medium text-muted-foreground">Topics</p>
            <ul className="list-inside list-disc">
              {data.topics.map((topic, index) => (
                <li key={index}>{topic.title}</li>
              ))}
            </ul>
          </div>
          <div>
            <p className="text-xs font-medium text-muted-foreground">User Prompt</p>
            <p className="line-clamp-6 break-words whitespace-pre-wrap">{data.userPrompt.trim() || "(none)"}</p>
          </div>
          {(data.repeats !== undefined || data.stopWhenSettled !== undefined) && (
            // The run settings applying restores (a model is named by its id here).
            <div>
              <p className="text-xs font-medium text-muted-foreground">Run</p>
              <ul className="list-inside list-disc">
                {data.repeats !== undefined && <li>Each persona × topic {data.repeats} times</li>}
                {data.stopWhenSettled !== undefined && (
                  <li>Stop when settled: {settleQuestionText(data.stopWhenSettled, new Map())}</li>
                )}
              </ul>
            </div>
          )}
        </div>
      )}
      <div className="mt-auto flex flex-wrap items-center gap-2">
        <Button
          type="button"
          size="sm"
          variant="outline"
          aria-expanded={previewing}
          aria-label={`${previewing ? "Hide preview of" : "Preview"} ${template.name}`}
          onClick={onPreview}
        >
          {previewing ? <EyeOffIcon /> : <EyeIcon />} {previewing ? "Hide Preview" : "Preview"}
        </Button>
        <Button type="button" size="sm" aria-label={`Apply ${template.name}`} onClick={onApply}>
          Apply
        </Button>
        {template.isOwn && (
          <>
            <Button type="button" size="sm" variant="ghost" onClick={onToggleVisibility}>
              {template.isPublic ? "Make Private" : "Make Public"}
            </Button>
            <Button
              type="button"
              size="icon-sm"
              variant="ghost"
              className="ml-auto text-destructive"
              aria-label={`Delete template ${template.name}`}
              onClick={onDelete}
            >
              <Trash2Icon />
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
