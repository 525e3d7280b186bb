import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { Money } from "@/components/money";
import { RouteErrorScreen } from "@/components/route-error-screen";

describe("RouteErrorScreen", () => {
  it("shows 'Unexpected Application Error!' with the message and ways out", async () => {
    // The router reports the thrown error on the console; that is expected here.
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const rootRoute = createRootRoute({
      component: () => {
        throw new Error("Kaboom in a screen");
      },
      errorComponent: RouteErrorScreen,
    });
    const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ["/"] }) });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole("heading", { name: "Unexpected Application Error!" })).toBeInTheDocument();
    expect(screen.getByText("Kaboom in a screen")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go Home" })).toHaveAttribute("href", "/");
  });
});

describe("Money", () => {
  it("shows cents and dollars as $X.XX", () => {
    render(
      <>
        <Money cents={1234} />
        <Money dollars={0.000123} decimals={6} />
        <Money dollars={2} />
      </>,
    );
    expect(screen.getByText("$12.34")).toBeInTheDocument();
    expect(screen.getByText("$0.000123")).toBeInTheDocument();
    expect(screen.getByText("$2.00")).toBeInTheDocument();
  });
});
