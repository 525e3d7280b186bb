import { Link } from "@tanstack/react-router";
import { useMutation } from "convex/react";
import { FileTextIcon, PencilIcon, PlusIcon, UserRoundIcon, type LucideIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { toast } from "@/lib/toast";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardAction, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
// The same persona and topic editor as Test Setup, so both places validate and look alike.
import { api } from "../../../convex/_generated/api";
import type { DashboardHomeData, SavedPersona, SavedTopic } from "./dashboard-model";

// The editors (a dialog with its focus and portal code, the kinds' fields and limits) load after
// the home page has shown.
const PersonaEditorDialog = lazy(() =>
  import("./saved-item-editors").then((module) => ({ default: module.PersonaEditorDialog })),
);
const TopicEditorDialog = lazy(() =>
  import("./saved-item-editors").then((module) => ({ default: module.TopicEditorDialog })),
);

interface PanelItem {
  id: string;
  title: string;
  description: string;
}

interface AssetPanelProps {
  title: string;
  singular: string;
  icon: LucideIcon;
  emptyText: string;
  total: number | undefined;
  items: readonly PanelItem[] | undefined;
  onAdd: () => void;
  onEdit: (id: string) => void;
}

function AssetPanel({ title, singular, icon: Icon, emptyText, total, items, onAdd, onEdit }: AssetPanelProps) {
  const more = total !== undefined && items !== undefined ? total - items.length : 0;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon aria-hidden="true" className="size-4 text-primary" />
          <h2>{title}</h2>
          {total !== undefined && (
            <Badge variant="secondary" aria-label={`${total} saved`}>
              {total}
            </Badge>
          )}
        </CardTitle>
        <CardAction className="flex gap-1">
          <Button variant="ghost" size="sm" onClick={onAdd} aria-label={`Add ${singular}`}>
            <PlusIcon /> Add
          </Button>
          <Button asChild variant="ghost" size="sm">
            <Link to="/dashboard/setup" aria-label={`Manage ${title.toLowerCase()}`}>
              Manage
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="px-4">
        {items === undefined ? (
          <div className="space-y-2" aria-busy="true" aria-label={`Loading ${title.toLowerCase()}`}>
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-10" />
            ))}
          </div>
        ) : items.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">{emptyText}</p>
        ) : (
          <>
            <ul aria-label={title} className="space-y-1">
              {items.map((item) => (
                <li key={item.id} className="group flex items-start gap-2 rounded-md px-2 py-1.5 hover:bg-muted/60">
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">{item.title}</p>
                    <p className="truncate text-xs text-muted-foreground">{item.description}</p>
                  </div>
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Edit ${singular} ${item.title}`}
                    onClick={() => onEdit(item.id)}
                  >
                    <PencilIcon />
                  </Button>
                </li>
              ))}
            </ul>
            {more > 0 && <p className="px-2 pt-2 text-xs text-muted-foreground">+{more} more</p>}
          </>
        )}
      </CardContent>
    </Card>
  );
}

type Editing<T> = { mode: "closed" } | { mode: "add" } | { mode: "edit"; item: T };

export function SavedPersonasPanel({ data }: { data: DashboardHomeData["personas"] | undefined }) {
  const create = useMutation(api.personas.create);
  const update = useMutation(api.personas.update);
  const [editing, setEditing] = useState<Editing<SavedPersona>>({ mode: "closed" });
  const current = editing.mode === "edit" ? editing.item : undefined;
  return (
    <>
      <AssetPanel
        title="Saved Personas"
        singular="persona"
        icon={UserRoundIcon}
        emptyText="No personas saved"
        total={data?.total}
        items={data?.items.map((persona) => ({
          id: persona._id,
          title: persona.name,
          description: persona.description,
        }))}
        onAdd={() => setEditing({ mode: "add" })}
        onEdit={(id) => {
          const item = data?.items.find((persona) => persona._id === id);
          if (item) setEditing({ mode: "edit", item });
        }}
      />
      <Suspense fallback={null}>
        <PersonaEditorDialog
          open={editing.mode !== "closed"}
          onOpenChange={(open) => !open && setEditing({ mode: "closed" })}
          initial={
            current
              ? { name: current.name, description: current.description, systemPrompt: current.systemPrompt }
              : undefined
          }
          onSubmit={async (values) => {
            if (current) {
              await update({ personaId: current._id, ...values });
              toast.success("Persona updated");
            } else {
              await create(values);
              toast.success("Persona saved");
            }
          }}
        />
      </Suspense>
    </>
  );
}

export function SavedTopicsPanel({ data }: { data: DashboardHomeData["topics"] | undefined }) {
  const create = useMutation(api.topics.create);
  const update = useMutation(api.topics.update);
  const [editing, setEditing] = useState<Editing<SavedTopic>>({ mode: "closed" });
  const current = editing.mode === "edit" ? editing.item : undefined;
  return (
    <>
      <AssetPanel
        title="Saved Topics"
        singular="topic"
        icon={FileTextIcon}
        emptyText="No topics saved"
        total={data?.total}
        items={data?.items.map((topic) => ({ id: topic._id, title: topic.title, description: topic.description }))}
        onAdd={() => setEditing({ mode: "add" })}
        onEdit={(id) => {
          const item = data?.items.find((topic) => topic._id === id);
          if (item) setEditing({ mode: "edit", item });
        }}
      />
      <Suspense fallback={null}>
        <TopicEditorDialog
          open={editing.mode !== "closed"}
          onOpenChange={(open) => !open && setEditing({ mode: "closed" })}
          initial={
            current ? { title: current.title, description: current.description, prompt: current.prompt } : undefined
          }
          onSubmit={async (values) => {
            if (current) {
              await update({ topicId: current._id, ...values });
              toast.success("Topic updated");
            } else {
              await create(values);
              toast.success("Topic saved");
            }
          }}
        />
      </Suspense>
    </>
  );
}
