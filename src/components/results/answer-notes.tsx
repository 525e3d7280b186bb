// Notes on one answer, in the view-response dialogs of the monitor and the results: the notes
// arrive live (one subscription per test, shared by the dialog and the responses list), members
// and owners add one with a short form, and each author (or a team owner) can delete theirs.
import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { MessageSquareIcon, Trash2Icon } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { formatDateTime } from "@/lib/dates";
import { errorMessage } from "@/lib/errors";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { NOTE_LIMITS, NOTE_MESSAGES } from "../../../convex/lib/limits";

export type NoteView = FunctionReturnType<typeof api.notes.list>[number];

/** The test's notes, live; undefined while loading. */
export function useTestNotes(testId: Id<"tests">): NoteView[] | undefined {
  return useQuery(api.notes.list, { testId });
}

/** How many notes each answer has. */
export function useNoteCounts(testId: Id<"tests">): Map<string, number> {
  const notes = useTestNotes(testId);
  return useMemo(() => {
    const counts = new Map<string, number>();
    for (const note of notes ?? []) counts.set(note.responseId, (counts.get(note.responseId) ?? 0) + 1);
    return counts;
  }, [notes]);
}

export function notesLabel(count: number): string {
  return `${count} note${count === 1 ? "" : "s"}`;
}

/** The answer's notes and, for members and owners, the form to add one. */
export function AnswerNotes({ testId, responseId }: { testId: Id<"tests">; responseId: Id<"responses"> }) {
  const notes = useTestNotes(testId);
  const canAdd = useQuery(api.notes.canAdd, { testId });
  const mine = notes?.filter((note) => note.responseId === responseId);
  return (
    <section aria-label="Notes" className="space-y-3 border-t pt-3">
      <h3 className="flex items-center gap-2 text-sm font-medium">
        <MessageSquareIcon className="size-4 text-muted-foreground" aria-hidden="true" />
        Notes{mine && mine.length > 0 ? ` (${mine.length})` : ""}
      </h3>
      {mine === undefined ? (
        <Spinner label="Loading notes" />
      ) : mine.length === 0 ? (
        <p className="text-sm text-muted-foreground">No notes on this answer yet.</p>
      ) : (
        <ul className="max-h-48 space-y-2 overflow-y-auto" aria-label="Notes on this answer">
          {mine.map((note) => (
            <NoteItem key={note._id} note={note} />
          ))}
        </ul>
      )}
      {canAdd === true && <NoteForm testId={testId} responseId={responseId} />}
      {canAdd === false && <p className="text-xs text-muted-foreground">Viewers can read notes but not add them.</p>}
    </section>
  );
}

function NoteItem({ note }: { note: NoteView }) {
  const remove = useMutation(api.notes.remove);
  const [deleting, setDeleting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const author = note.mine ? "You" : (note.authorName ?? note.authorInitials);
  const onDelete = async () => {
    setDeleting(true);
    setProblem(null);
    try {
      await remove({ noteId: note._id });
    } catch (error) {
      setProblem(errorMessage(error, "The note could not be deleted. Please try again."));
      setDeleting(false);
    }
  };
  return (
    <li className="flex gap-2 rounded-md border bg-muted/30 p-2 text-sm" data-testid="note">
      <span
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-[11px] font-semibold text-primary-foreground"
        aria-hidden="true"
      >
        {note.authorInitials}
      </span>
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="text-xs text-muted-foreground">
          <span className="font-medium text-foreground">{author}</span>
          <span className="sr-only"> ({note.authorInitials})</span> ·{" "}
          <time dateTime={new Date(note.createdAt).toISOString()}>{formatDateTime(note.createdAt)}</time>
        </p>
        <p className="break-words whitespace-pre-wrap">{note.body}</p>
        {problem && (
          <p role="alert" className="text-xs text-destructive">
            {problem}
          </p>
        )}
      </div>
      {note.canDelete && (
        <Button
          variant="ghost"
          size="icon"
          className="size-7 shrink-0"
          onClick={() => void onDelete()}
          disabled={deleting}
          aria-label={`Delete note: ${note.body.slice(0, 40)}`}
        >
          <Trash2Icon className="size-3.5" />
        </Button>
      )}
    </li>
  );
}

function NoteForm({ testId, responseId }: { testId: Id<"tests">; responseId: Id<"responses"> }) {
  const add = useMutation(api.notes.add);
  const [body, setBody] = useState("");
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const length = body.trim().length;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (length === 0) {
      setProblem(NOTE_MESSAGES.empty);
      return;
    }
    setSaving(true);
    setProblem(null);
    try {
      await add({ testId, responseId, body });
      setBody("");
    } catch (error) {
      setProblem(errorMessage(error, "The note could not be added. Please try again."));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="space-y-2">
      <label htmlFor={`note-${responseId}`} className="sr-only">
        Add a note
      </label>
      <Textarea
        id={`note-${responseId}`}
        value={body}
        onChange={(event) => {
          setBody(event.target.value);
          setProblem(null);
        }}
        placeholder="Add a note for your team…"
        maxLength={NOTE_LIMITS.maxBodyLength}
        rows={2}
        aria-invalid={problem !== null}
        aria-describedby={`note-${responseId}-hint`}
      />
      <div className="flex items-center justify-between gap-2">
        <span id={`note-${responseId}-hint`} className="text-xs text-muted-foreground tabular-nums">
          {problem ? (
            <span role="alert" className="text-destructive">
              {problem}
            </span>
          ) : (
            `${body.length} / ${NOTE_LIMITS.maxBodyLength}`
          )}
        </span>
        <Button type="submit" size="sm" disabled={saving}>
          {saving && <Spinner className="text-current" label="Adding the note" />}
          Add Note
        </Button>
      </div>
    </form>
  );
}
