import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { notify } from "./notify";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { LIMITS } from "../../../convex/lib/pricing";
import { PERSONA_KIND } from "./item-kinds";
import { ItemsSection } from "./items-section";
import { SavedItemsDialog } from "./saved-items-dialog";
import type { SetupState } from "./setup-state";
import type { SetupActions } from "./use-setup-state";

/** Section 3: the test's personas, and the user's saved personas. */
export function PersonasSection({ state, actions }: { state: SetupState; actions: SetupActions }) {
  const [pickerOpen, setPickerOpen] = useState(false);
  const saved = useQuery(api.personas.list, pickerOpen ? {} : "skip");
  const createSaved = useMutation(api.personas.create);
  const updateSaved = useMutation(api.personas.update);
  const removeSaved = useMutation(api.personas.remove);

  return (
    <>
      <ItemsSection
        kind={PERSONA_KIND}
        id="personas"
        number={3}
        title="Personas"
        description="Each persona is a system prompt that sets the voice or behaviour of the generator models."
        items={state.personas}
        max={LIMITS.maxPersonas}
        onAdd={actions.addPersona}
        onUpdate={actions.updatePersona}
        onRemove={actions.removePersona}
        onOpenSaved={() => setPickerOpen(true)}
        onSaveToLibrary={async (values) => {
          await createSaved(values);
        }}
      />
      <SavedItemsDialog
        kind={PERSONA_KIND}
        open={pickerOpen}
        onOpenChange={setPickerOpen}
        items={saved?.items}
        onPick={(values) => {
          actions.addPersona(values);
          notify.success(`Added persona "${values.name}"`);
        }}
        onEdit={async (id, values) => {
          await updateSaved({ personaId: id as Id<"personas">, ...values });
        }}
        onDelete={async (id) => {
          await removeSaved({ personaId: id as Id<"personas"> });
        }}
      />
    </>
  );
}
