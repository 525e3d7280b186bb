import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { callMock, mockCall, setQueryResult } from "@/test/convex-mock";

import { HEARTBEAT_MS, ViewerAvatars } from "./presence";

describe("presence", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("beats on mount and every 5 seconds, and says goodbye on unmount", () => {
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    const { unmount } = render(<ViewerAvatars room="test:abc" page="monitor" />);
    const heartbeat = callMock("presence:heartbeat");
    expect(heartbeat).toHaveBeenCalledTimes(1);
    const args = heartbeat.mock.calls[0]![0];
    expect(args).toEqual({
      room: "test:abc",
      clientId: expect.stringMatching(/^[0-9a-f]{24}$/),
      page: "monitor",
      arrivedAt: Date.now(),
    });
    act(() => {
      vi.advanceTimersByTime(HEARTBEAT_MS * 2);
    });
    expect(heartbeat).toHaveBeenCalledTimes(3);
    // Every beat says when the page opened, so another tab's beats do not move the page shown.
    expect(heartbeat.mock.calls[2]![0]).toEqual(args);
    unmount();
    const { arrivedAt: _arrivedAt, ...leaveArgs } = args as { arrivedAt: number };
    expect(callMock("presence:leave")).toHaveBeenCalledWith(leaveArgs);
  });

  it("shows the others as initials or 'anonymous viewer', and nothing when alone", () => {
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    const { rerender } = render(<ViewerAvatars room="test:abc" page="monitor" />);
    expect(screen.queryByTestId("viewer-avatars")).not.toBeInTheDocument();
    act(() =>
      setQueryResult("presence:viewers", {
        count: 2,
        viewers: [
          { id: "1", label: "GH", anonymous: false, page: "results" },
          { id: "2", label: "anonymous viewer", anonymous: true, page: "shared" },
        ],
      }),
    );
    rerender(<ViewerAvatars room="test:abc" page="monitor" />);
    const group = screen.getByRole("group", { name: "Also viewing: GH · Results, anonymous viewer" });
    expect(group).toHaveTextContent("GH · Results");
    expect(group).toHaveTextContent("2 others viewing");
  });

  it("tells the page each teammate is on, and beats with the new page when this one changes", () => {
    setQueryResult("presence:viewers", {
      count: 2,
      viewers: [
        { id: "1", label: "AL", anonymous: false, page: "review" },
        { id: "2", label: "GH", anonymous: false, page: "monitor" },
      ],
    });
    const { rerender } = render(<ViewerAvatars room="test:abc" page="results" />);
    expect(screen.getByTestId("viewer-pages")).toHaveTextContent("AL · Review, GH · Monitor");
    rerender(<ViewerAvatars room="test:abc" page="review" />);
    const heartbeat = callMock("presence:heartbeat");
    expect(heartbeat.mock.calls.map(([args]) => (args as { page: string }).page)).toEqual(["results", "review"]);
    expect(callMock("presence:leave")).toHaveBeenCalledWith(expect.objectContaining({ page: "results" }));
  });

  it("stops beating, quietly, once the server says the room is gone (test deleted, share turned off)", async () => {
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    mockCall("presence:heartbeat", () => "gone");
    render(<ViewerAvatars room="share:abc" page="shared" />);
    const heartbeat = callMock("presence:heartbeat");
    await act(async () => {
      await Promise.resolve();
    });
    await act(async () => {
      vi.advanceTimersByTime(HEARTBEAT_MS * 3);
      await Promise.resolve();
    });
    expect(heartbeat).toHaveBeenCalledTimes(1);
  });

  it("does not join before the room is known", () => {
    render(<ViewerAvatars room={null} page="monitor" />);
    expect(callMock("presence:heartbeat")).not.toHaveBeenCalled();
  });

  it("an anonymous viewer is shown the count only, no initials", () => {
    setQueryResult("presence:viewers", { count: 3, viewers: [] });
    render(<ViewerAvatars room="share:abc" page="shared" />);
    const group = screen.getByRole("group", { name: "3 others viewing" });
    expect(group).toHaveTextContent(/^3 others viewing$/);
    expect(screen.queryByTestId("viewer-avatars")).not.toBeInTheDocument();
  });
});
