import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { notify } from "./notify";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { LIMITS } from "../../../convex/lib/pricing";
import { TOPIC_KIND } from "./item-kinds";
import { ItemsSection } from "./items-section";
import { SavedItemsDialog } from "./saved-items-dialog";
import type { SetupState } from "./setup-state";
import type { SetupActions } from "./use-setup-state";

/** Section 4: the test's topics, and the user's saved topics. */
export function TopicsSection({ state, actions }: { state: SetupState; actions: SetupActions }) {
  const [pickerOpen, setPickerOpen] = useState(false);
  const saved = useQuery(api.topics.list, pickerOpen ? {} : "skip");
  const createSaved = useMutation(api.topics.create);
  const updateSaved = useMutation(api.topics.update);
  const removeSaved = useMutation(api.topics.remove);

  return (
    <>
      <ItemsSection
        kind={TOPIC_KIND}
        id="topics"
        number={4}
        title="Topics"
        description="Each topic is a scenario whose content is combined with the user prompt."
        items={state.topics}
        max={LIMITS.maxTopics}
        onAdd={actions.addTopic}
        onUpdate={actions.updateTopic}
        onRemove={actions.removeTopic}
        onOpenSaved={() => setPickerOpen(true)}
        onSaveToLibrary={async (values) => {
          await createSaved(values);
        }}
      />
      <SavedItemsDialog
        kind={TOPIC_KIND}
        open={pickerOpen}
        onOpenChange={setPickerOpen}
        items={saved?.items}
        onPick={(values) => {
          actions.addTopic(values);
          notify.success(`Added topic "${values.title}"`);
        }}
        onEdit={async (id, values) => {
          await updateSaved({ topicId: id as Id<"topics">, ...values });
        }}
        onDelete={async (id) => {
          await removeSaved({ topicId: id as Id<"topics"> });
        }}
      />
    </>
  );
}
