import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { ResponsesList } from "./responses-section";
import { makeResponse, TEST_ID } from "@/test/fixtures/results";
import { callMock, mockCall, setPaginated, setQueryResult } from "@/test/convex-mock";

import type { Id } from "../../../convex/_generated/dataModel";
import { AnswerNotes, type NoteView } from "@/components/results/answer-notes";

const ANSWER = makeResponse(1)._id;
const OTHER_ANSWER = makeResponse(2)._id;

function note(index: number, extra: Partial<NoteView> = {}): NoteView {
  return {
    _id: `k57note${String(index).padStart(24, "0")}` as Id<"notes">,
    responseId: ANSWER,
    body: `Note ${index}`,
    authorInitials: "BS",
    authorName: "Bob Stone",
    createdAt: Date.UTC(2026, 0, 15, 12, index),
    mine: false,
    canDelete: false,
    ...extra,
  };
}

describe("notes on an answer", () => {
  it("lists this answer's notes with author and time, live, and lets the author delete theirs", async () => {
    const user = userEvent.setup();
    setQueryResult("notes:canAdd", true);
    setQueryResult("notes:list", [
      note(1, { body: "Too formal for a barista." }),
      note(2, { responseId: OTHER_ANSWER, body: "On another answer" }),
    ]);
    render(<AnswerNotes testId={TEST_ID} responseId={ANSWER} />);
    const list = screen.getByRole("list", { name: "Notes on this answer" });
    const items = within(list).getAllByTestId("note");
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent("Bob Stone (BS)");
    expect(items[0]).toHaveTextContent("Too formal for a barista.");
    expect(items[0]!.querySelector("time")).toHaveAttribute("dateTime", "2026-01-15T12:01:00.000Z");
    expect(screen.queryByRole("button", { name: /Delete note/ })).not.toBeInTheDocument();

    // A teammate's note arrives without a reload; the caller's own can be deleted.
    act(() =>
      setQueryResult("notes:list", [
        note(1, { body: "Too formal for a barista." }),
        note(3, { body: "Agreed, shorter please", mine: true, canDelete: true, authorInitials: "AL" }),
      ]),
    );
    const mine = within(screen.getByRole("list", { name: "Notes on this answer" })).getAllByTestId("note")[1]!;
    expect(mine).toHaveTextContent("You (AL)");
    expect(screen.getByRole("heading", { name: "Notes (2)" })).toBeInTheDocument();
    await user.click(within(mine).getByRole("button", { name: "Delete note: Agreed, shorter please" }));
    expect(callMock("notes:remove")).toHaveBeenCalledWith({ noteId: note(3)._id });
  });

  it("adds a note from the form, refuses an empty one, and shows the server's reason", async () => {
    const user = userEvent.setup();
    setQueryResult("notes:canAdd", true);
    setQueryResult("notes:list", []);
    render(<AnswerNotes testId={TEST_ID} responseId={ANSWER} />);
    expect(screen.getByText("No notes on this answer yet.")).toBeInTheDocument();

    const field = screen.getByLabelText("Add a note");
    expect(field).toHaveAttribute("maxLength", "500");
    await user.type(field, "   ");
    await user.click(screen.getByRole("button", { name: "Add Note" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Write something before adding the note.");
    expect(callMock("notes:add")).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, "Best of the batch");
    expect(screen.getByText("17 / 500")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add Note" }));
    expect(callMock("notes:add")).toHaveBeenCalledWith({
      testId: TEST_ID,
      responseId: ANSWER,
      body: "Best of the batch",
    });
    expect(field).toHaveValue("");

    mockCall("notes:add", () => {
      throw Object.assign(new Error("refused"), {
        data: { code: "FORBIDDEN", message: "Viewers can look but not change anything." },
      });
    });
    await user.type(field, "Again");
    await user.click(screen.getByRole("button", { name: "Add Note" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Viewers can look but not change anything.");
    expect(field).toHaveValue("Again");
  });

  it("a viewer reads the notes without a form", () => {
    setQueryResult("notes:canAdd", false);
    setQueryResult("notes:list", [note(1)]);
    render(<AnswerNotes testId={TEST_ID} responseId={ANSWER} />);
    expect(screen.getAllByTestId("note")).toHaveLength(1);
    expect(screen.queryByLabelText("Add a note")).not.toBeInTheDocument();
    expect(screen.getByText("Viewers can read notes but not add them.")).toBeInTheDocument();
  });

  it("the results' responses list shows each answer's note count, and its dialog the notes", async () => {
    const user = userEvent.setup();
    setPaginated("results:responses", [makeResponse(1), makeResponse(2)]);
    setQueryResult("notes:canAdd", true);
    setQueryResult("notes:list", [note(1), note(2), note(3, { responseId: OTHER_ANSWER })]);
    render(<ResponsesList testId={TEST_ID} />);
    const rows = screen.getAllByTestId("response-row");
    expect(within(rows[0]!).getByTestId("note-count")).toHaveTextContent("2 notes");
    expect(within(rows[1]!).getByTestId("note-count")).toHaveTextContent("1 note");

    await user.click(within(rows[1]!).getByRole("button", { name: /View full response/ }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getAllByTestId("note")).toHaveLength(1);
    expect(within(dialog).getByText("Note 3")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Add a note")).toBeInTheDocument();
  });
});
