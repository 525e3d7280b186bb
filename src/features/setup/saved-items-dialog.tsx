import { PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { notify } from "./notify";

import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/empty-state";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/errors";
import { DestructiveConfirmDialog } from "@/components/confirm-dialog";
import { ItemEditorDialog } from "./item-editor-dialog";
import { fieldValues, type ItemKind } from "./item-kinds";

export type SavedItem<K extends string> = { _id: string } & Record<K, string>;

interface SavedItemsDialogProps<K extends string> {
  kind: ItemKind<K>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Undefined while loading. */
  items: readonly SavedItem<K>[] | undefined;
  /** Copies the saved item into the test. */
  onPick: (values: Record<K, string>) => void;
  onEdit: (id: string, values: Record<K, string>) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
}

/** 'Select Saved Persona' / 'Select Saved Topic': search, click to copy into the test, edit or delete. */
export function SavedItemsDialog<K extends string>({
  kind,
  open,
  onOpenChange,
  items,
  onPick,
  onEdit,
  onDelete,
}: SavedItemsDialogProps<K>) {
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<SavedItem<K> | null>(null);
  const [deleting, setDeleting] = useState<SavedItem<K> | null>(null);
  const needle = search.trim().toLowerCase();
  const shown = (items ?? []).filter(
    (item) => !needle || kind.fields.some((field) => item[field.key].toLowerCase().includes(needle)),
  );
  const valuesOf = (item: SavedItem<K>) => fieldValues(kind, item);

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>Select Saved {kind.Singular}</DialogTitle>
            <DialogDescription>Click a saved {kind.singular} to copy it into this test.</DialogDescription>
          </DialogHeader>
          <SearchInput label={`Search saved ${kind.plural}`} value={search} onSearch={setSearch} />
          {items === undefined ? (
            <div className="flex justify-center py-8">
              <Spinner className="size-6" label={`Loading saved ${kind.plural}`} />
            </div>
          ) : shown.length === 0 ? (
            <EmptyState
              title={kind.emptySavedText}
              description={
                items.length === 0
                  ? `Save a ${kind.singular} from your test to reuse it here.`
                  : "Try a different search."
              }
            />
          ) : (
            <ul className="max-h-[50dvh] space-y-2 overflow-y-auto pr-1" aria-label={`Saved ${kind.plural}`}>
              {shown.map((item) => {
                const title = item[kind.titleKey];
                return (
                  <li key={item._id} className="flex items-start gap-2 rounded-lg border p-3">
                    <button
                      type="button"
                      className="min-w-0 flex-1 rounded text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                      aria-label={`Use ${kind.singular} ${title}`}
                      onClick={() => {
                        onPick(valuesOf(item));
                        onOpenChange(false);
                      }}
                    >
                      <p className="font-medium break-words">{title}</p>
                      <p className="text-sm break-words text-muted-foreground">{item[kind.descriptionKey]}</p>
                      <p className="mt-1 line-clamp-2 text-xs break-words text-muted-foreground">
                        {item[kind.bodyKey]}
                      </p>
                    </button>
                    <div className="flex shrink-0 gap-1">
                      <Button
                        type="button"
                        size="icon-sm"
                        variant="ghost"
                        aria-label={`Add ${kind.singular} ${title}`}
                        onClick={() => {
                          onPick(valuesOf(item));
                          onOpenChange(false);
                        }}
                      >
                        <PlusIcon />
                      </Button>
                      <Button
                        type="button"
                        size="icon-sm"
                        variant="ghost"
                        aria-label={`Edit saved ${kind.singular} ${title}`}
                        onClick={() => setEditing(item)}
                      >
                        <PencilIcon />
                      </Button>
                      <Button
                        type="button"
                        size="icon-sm"
                        variant="ghost"
                        aria-label={`Delete saved ${kind.singular} ${title}`}
                        onClick={() => setDeleting(item)}
                      >
                        <Trash2Icon />
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </DialogContent>
      </Dialog>
      <ItemEditorDialog
        kind={kind}
        open={editing !== null}
        onOpenChange={(next) => !next && setEditing(null)}
        initial={editing ? valuesOf(editing) : undefined}
        title={`Edit Saved ${kind.Singular}`}
        onSubmit={async (values) => {
          if (!editing) return;
          await onEdit(editing._id, values);
          notify.success(`Saved ${kind.singular} updated`);
        }}
      />
      <DestructiveConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title={`Delete Saved ${kind.Singular}`}
        description={`Delete this saved ${kind.singular}? Tests that already use it keep their copy.`}
        subject={deleting?.[kind.titleKey]}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await onDelete(deleting._id);
            notify.success(`Saved ${kind.singular} deleted`);
          } catch (error) {
            notify.error(errorMessage(error));
          }
        }}
      />
    </>
  );
}
