import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { callMock } from "@/test/convex-mock";

import { COPIED_MS, SHARE_NOTE, ShareDialog } from "./share-dialog";
import { TEST_ID } from "@/test/fixtures/results";

function deferred() {
  let resolve!: (value: unknown) => void;
  const promise = new Promise((res) => (resolve = res));
  return { promise, resolve };
}

describe("share dialog", () => {
  it("turns sharing on, showing 'Creating shareable link...' meanwhile", async () => {
    const enable = callMock("shares:enable");
    const pending = deferred();
    enable.mockImplementationOnce(() => pending.promise);
    render(<ShareDialog testId={TEST_ID} share={null} open onOpenChange={() => {}} />);
    expect(screen.getByText(SHARE_NOTE)).toBeInTheDocument();
    const toggle = screen.getByRole("switch", { name: "Public sharing" });
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);
    expect(enable).toHaveBeenCalledWith({ testId: TEST_ID });
    expect(screen.getByText("Creating shareable link...")).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "Public sharing" })).toBeDisabled();
    await act(async () => pending.resolve({ shareId: "s3cr3t" }));
    expect(screen.queryByText("Creating shareable link...")).not.toBeInTheDocument();
  });

  it("shows the link and copies it, showing 'Copied!' for 2 seconds", async () => {
    vi.useFakeTimers();
    try {
      const writeText = vi.fn(async () => {});
      Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
      render(
        <ShareDialog testId={TEST_ID} share={{ shareId: "s3cr3t", isActive: true }} open onOpenChange={() => {}} />,
      );
      const link = `${window.location.origin}/shared/s3cr3t`;
      expect(screen.getByLabelText("Shareable link")).toHaveValue(link);
      await act(async () => {
        fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
      });
      expect(writeText).toHaveBeenCalledWith(link);
      expect(screen.getByRole("button", { name: "Copied" })).toHaveTextContent("Copied!");
      await act(async () => {
        vi.advanceTimersByTime(COPIED_MS - 100);
      });
      expect(screen.getByRole("button", { name: "Copied" })).toBeInTheDocument();
      await act(async () => {
        vi.advanceTimersByTime(200);
      });
      expect(screen.getByRole("button", { name: "Copy link" })).toHaveTextContent("Copy");
    } finally {
      vi.useRealTimers();
    }
  });

  it("turns sharing off", async () => {
    const disable = callMock("shares:disable");
    render(<ShareDialog testId={TEST_ID} share={{ shareId: "s3cr3t", isActive: true }} open onOpenChange={() => {}} />);
    const toggle = screen.getByRole("switch", { name: "Public sharing" });
    expect(toggle).toBeChecked();
    await act(async () => {
      fireEvent.click(toggle);
    });
    expect(disable).toHaveBeenCalledWith({ testId: TEST_ID });
  });

  it("hides the link of an inactive share", () => {
    render(<ShareDialog testId={TEST_ID} share={{ shareId: "old", isActive: false }} open onOpenChange={() => {}} />);
    expect(screen.queryByLabelText("Shareable link")).not.toBeInTheDocument();
  });
});
