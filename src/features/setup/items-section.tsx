import { BookmarkPlusIcon, LibraryIcon, PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { notify } from "./notify";

import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/errors";
import { ItemEditorDialog } from "./item-editor-dialog";
import { fieldValues, type ItemKind } from "./item-kinds";
import { SetupSection } from "./setup-section";

export type TestItem<K extends string> = { id: string } & Record<K, string>;

interface ItemsSectionProps<K extends string> {
  kind: ItemKind<K>;
  id: string;
  number: number;
  title: string;
  description: string;
  items: readonly TestItem<K>[];
  max: number;
  onAdd: (values: Record<K, string>) => void;
  onUpdate: (id: string, values: Record<K, string>) => void;
  onRemove: (id: string) => void;
  onOpenSaved: () => void;
  /** Saves a copy to the user's saved list. */
  onSaveToLibrary: (values: Record<K, string>) => Promise<void>;
}

/** Sections 3 and 4: the test's personas or topics, with the editor and the saved-item picker. */
export function ItemsSection<K extends string>({
  kind,
  id,
  number,
  title,
  description,
  items,
  max,
  onAdd,
  onUpdate,
  onRemove,
  onOpenSaved,
  onSaveToLibrary,
}: ItemsSectionProps<K>) {
  const [editor, setEditor] = useState<{ item?: TestItem<K> } | null>(null);
  const [savingId, setSavingId] = useState<string | null>(null);
  const full = items.length >= max;
  const valuesOf = (item: TestItem<K>) => fieldValues(kind, item);

  async function saveToLibrary(item: TestItem<K>) {
    setSavingId(item.id);
    try {
      await onSaveToLibrary(valuesOf(item));
      notify.success(`Saved "${item[kind.titleKey]}" to your ${kind.plural}`);
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setSavingId(null);
    }
  }

  return (
    <SetupSection id={id} number={number} title={title} description={description}>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" size="sm" onClick={() => setEditor({})} disabled={full}>
          <PlusIcon /> Add {kind.Singular}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onOpenSaved} disabled={full}>
          <LibraryIcon /> Select Saved {kind.Singular}
        </Button>
        <span className="ml-auto text-sm text-muted-foreground" data-testid={`${kind.singular}-count`}>
          {items.length} of {max} {kind.plural}
        </span>
      </div>

      {items.length === 0 ? (
        <EmptyState
          title={`No ${kind.plural} added`}
          description={`Add a ${kind.singular}, or select one you saved before.`}
        />
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label={`Test ${kind.plural}`}>
          {items.map((item) => {
            const name = item[kind.titleKey];
            return (
              <li key={item.id} className="flex flex-col gap-2 rounded-lg border p-3">
                <div className="flex items-start gap-2">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium break-words">{name}</p>
                    <p className="text-sm break-words text-muted-foreground">{item[kind.descriptionKey]}</p>
                  </div>
                  <div className="flex shrink-0 gap-1">
                    <Button
                      type="button"
                      size="icon-sm"
                      variant="ghost"
                      aria-label={`Save ${kind.singular} ${name} to saved ${kind.plural}`}
                      title={`Save to your ${kind.plural}`}
                      disabled={savingId === item.id}
                      onClick={() => void saveToLibrary(item)}
                    >
                      <BookmarkPlusIcon />
                    </Button>
                    <Button
                      type="button"
                      size="icon-sm"
                      variant="ghost"
                      aria-label={`Edit ${kind.singular} ${name}`}
                      onClick={() => setEditor({ item })}
                    >
                      <PencilIcon />
                    </Button>
                    <Button
                      type="button"
                      size="icon-sm"
                      variant="ghost"
                      aria-label={`Remove ${kind.singular} ${name}`}
                      onClick={() => onRemove(item.id)}
                    >
                      <Trash2Icon />
                    </Button>
                  </div>
                </div>
                {/* The padding is outside the clamped box: inside it, a fourth line would show in the padding. */}
                <div className="rounded-md bg-muted/50 px-2 py-1">
                  <p className="line-clamp-3 text-xs break-words whitespace-pre-wrap text-muted-foreground">
                    {item[kind.bodyKey]}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <ItemEditorDialog
        kind={kind}
        open={editor !== null}
        onOpenChange={(next) => !next && setEditor(null)}
        initial={editor?.item ? valuesOf(editor.item) : undefined}
        onSubmit={(values) => {
          if (editor?.item) onUpdate(editor.item.id, values);
          else onAdd(values);
        }}
      />
    </SetupSection>
  );
}
