// The persona and topic editors of the dashboard's Saved Personas and Saved Topics, loaded after
// the home page has shown (saved-assets.tsx): the editor dialog, its validation and the kinds'
// field texts and limits are not needed to show the lists.
import { ItemEditorDialog } from "@/features/setup/item-editor-dialog";
import { PERSONA_KIND, TOPIC_KIND, type PersonaField, type TopicField } from "@/features/setup/item-kinds";

type EditorProps<K extends string> = Omit<Parameters<typeof ItemEditorDialog<K>>[0], "kind">;

export function PersonaEditorDialog(props: EditorProps<PersonaField>) {
  return <ItemEditorDialog kind={PERSONA_KIND} {...props} />;
}

export function TopicEditorDialog(props: EditorProps<TopicField>) {
  return <ItemEditorDialog kind={TOPIC_KIND} {...props} />;
}
