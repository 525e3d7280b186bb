import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { PERSONA_LIMITS } from "../../../convex/lib/limits";
import { ItemEditorDialog } from "./item-editor-dialog";
import { PERSONA_KIND } from "./item-kinds";

describe("persona and topic editor limits", () => {
  it("shows each field's length against the server's limit, so a long paste is not cut silently", async () => {
    const user = userEvent.setup();
    render(<ItemEditorDialog kind={PERSONA_KIND} open onOpenChange={() => {}} onSubmit={vi.fn()} />);
    const dialog = screen.getByRole("dialog");
    const prompt = within(dialog).getByLabelText("System Prompt");
    expect(prompt).toHaveAttribute("maxLength", String(PERSONA_LIMITS.maxSystemPromptLength));
    expect(within(dialog).getByText(/^0\/10,000/)).toBeInTheDocument();
    await user.type(prompt, "Arr!");
    expect(within(dialog).getByText(/^4\/10,000/)).toHaveTextContent("4/10,000 characters, at most 10,000");
    expect(within(dialog).getByText(/^0\/100/)).toBeInTheDocument();
  });
});
