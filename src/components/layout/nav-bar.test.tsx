import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { NavBar } from "@/components/layout/nav-bar";
import { ThemeProvider } from "@/components/theme-provider";
import { makeViewer, setSignedIn, signOut } from "@/test/convex-mock";

function renderNavBar() {
  const rootRoute = createRootRoute({ component: NavBar });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ["/dashboard"] }),
  });
  render(
    <ThemeProvider>
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
  return router;
}

describe("NavBar", () => {
  it("shows the product items but no Admin entry to a regular user", async () => {
    setSignedIn(makeViewer({ isAdmin: false }));
    renderNavBar();
    const nav = await screen.findByRole("navigation", { name: "Main" });
    for (const [name, href] of [
      ["Test Setup", "/dashboard/setup"],
      ["Monitor", "/dashboard/monitor"],
      ["History", "/dashboard/history"],
      ["Templates", "/dashboard/templates"],
    ]) {
      expect(within(nav).getByRole("link", { name })).toHaveAttribute("href", href);
    }
    expect(within(nav).queryByRole("link", { name: "Admin" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "ModelJury home" })).toHaveAttribute("href", "/dashboard");
  });

  it("shows Admin to an admin", async () => {
    setSignedIn(makeViewer({ isAdmin: true }));
    renderNavBar();
    const nav = await screen.findByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("link", { name: "Admin" })).toHaveAttribute("href", "/admin");
  });

  it("has a user menu with the email, the first 8 characters of the account id and the account links", async () => {
    const user = userEvent.setup();
    setSignedIn(makeViewer({ _id: "k17abcdefghij0123456789" as never, email: "grace@example.com" }));
    renderNavBar();
    await user.click(await screen.findByRole("button", { name: "User menu" }));
    const menu = await screen.findByRole("menu");
    expect(within(menu).getByText("grace@example.com")).toBeInTheDocument();
    expect(within(menu).getByText("ID: k17abcde")).toBeInTheDocument();
    expect(within(menu).getByRole("menuitem", { name: "Account Settings" })).toHaveAttribute(
      "href",
      "/dashboard/settings",
    );
    // Where users connect their own gateway key (spec part 1 §1).
    expect(within(menu).getByRole("menuitem", { name: "Usage" })).toHaveAttribute("href", "/dashboard/settings#usage");
    expect(within(menu).getByRole("menuitem", { name: "Billing & Credits" })).toHaveAttribute(
      "href",
      "/dashboard/billing",
    );
    await user.click(within(menu).getByRole("menuitem", { name: "Sign Out" }));
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
  });

  it("offers Sign In and Sign Up when signed out, with the logo leading to /", async () => {
    renderNavBar();
    expect(await screen.findByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
    expect(screen.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup");
    expect(screen.getByRole("link", { name: "ModelJury home" })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("navigation", { name: "Main" })).not.toBeInTheDocument();
  });

  it("has a mobile menu with the same entries", async () => {
    const user = userEvent.setup();
    setSignedIn(makeViewer({ isAdmin: true }));
    renderNavBar();
    await user.click(await screen.findByRole("button", { name: "Open menu" }));
    const sheet = await screen.findByRole("dialog");
    const mobileNav = within(sheet).getByRole("navigation", { name: "Mobile" });
    for (const name of ["Test Setup", "Monitor", "History", "Templates", "Admin"]) {
      expect(within(mobileNav).getByRole("link", { name })).toBeInTheDocument();
    }
    expect(within(sheet).getByText("ID: k17abcde")).toBeInTheDocument();
    expect(within(sheet).getByRole("link", { name: "Account Settings" })).toBeInTheDocument();
    expect(within(sheet).getByRole("link", { name: "Usage" })).toHaveAttribute("href", "/dashboard/settings#usage");
    expect(within(sheet).getByRole("button", { name: "Sign Out" })).toBeInTheDocument();
  });
});
