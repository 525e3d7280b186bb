import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { callMock, resetCalls, resetConvexMock, setQueryResult } from "@/test/convex-mock";

import { HEARTBEAT_MS, ViewerAvatars } from "./presence";

vi.mock("convex/react", () => import("@/test/convex-mock").then((m) => m.convexReactModule));

describe("presence", () => {
  beforeEach(() => {
    resetConvexMock();
    resetCalls();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("beats on mount and every 5 seconds, and says goodbye on unmount", () => {
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    const { unmount } = render(<ViewerAvatars room="test:abc" />);
    const heartbeat = callMock("presence:heartbeat");
    expect(heartbeat).toHaveBeenCalledTimes(1);
    const args = heartbeat.mock.calls[0]![0];
    expect(args).toEqual({ room: "test:abc", clientId: expect.stringMatching(/^[0-9a-f]{24}$/) });
    act(() => {
      vi.advanceTimersByTime(HEARTBEAT_MS * 2);
    });
    expect(heartbeat).toHaveBeenCalledTimes(3);
    unmount();
    expect(callMock("presence:leave")).toHaveBeenCalledWith(args);
  });

  it("shows the others as initials or 'anonymous viewer', and nothing when alone", () => {
    setQueryResult("presence:viewers", { count: 0, viewers: [] });
    const { rerender } = render(<ViewerAvatars room="test:abc" />);
    expect(screen.queryByTestId("viewer-avatars")).not.toBeInTheDocument();
    act(() =>
      setQueryResult("presence:viewers", {
        count: 2,
        viewers: [
          { id: "1", label: "GH", anonymous: false },
          { id: "2", label: "anonymous viewer", anonymous: true },
        ],
      }),
    );
    rerender(<ViewerAvatars room="test:abc" />);
    const group = screen.getByRole("group", { name: "Also viewing: GH, anonymous viewer" });
    expect(group).toHaveTextContent("GH");
    expect(group).toHaveTextContent("2 others viewing");
  });

  it("does not join before the room is known", () => {
    render(<ViewerAvatars room={null} />);
    expect(callMock("presence:heartbeat")).not.toHaveBeenCalled();
  });

  it("an anonymous viewer is shown the count only, no initials", () => {
    setQueryResult("presence:viewers", { count: 3, viewers: [] });
    render(<ViewerAvatars room="share:abc" />);
    const group = screen.getByRole("group", { name: "3 others viewing" });
    expect(group).toHaveTextContent(/^3 others viewing$/);
    expect(screen.queryByTestId("viewer-avatars")).not.toBeInTheDocument();
  });
});
