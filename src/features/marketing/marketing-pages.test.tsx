import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { renderApp } from "@/test/render-app";
import { AWARD_LINKS } from "./awards-page";

describe("marketing pages", () => {
  it("the landing page has the use cases, the promises, pricing, the award badge and every link", async () => {
    renderApp("/");
    await screen.findByRole("heading", { name: "Find the right AI model for the job" });
    for (const useCase of [
      "Marketing Copy",
      "Code Generation",
      "Customer Service",
      "Content Creation & SEO",
      "Technical Documentation",
      "Custom Evaluation",
    ]) {
      expect(screen.getByRole("heading", { name: useCase })).toBeInTheDocument();
    }
    for (const promise of [
      "Quantitative metrics",
      "Safety & hallucination testing",
      "Side-by-side comparison",
      "Custom test suites",
      "QA & performance analysis",
    ]) {
      expect(screen.getByRole("heading", { name: promise })).toBeInTheDocument();
    }
    expect(screen.getByText("about $2-15")).toBeInTheDocument();
    expect(screen.getByText(/with a \$2\.00 minimum per test/)).toBeInTheDocument();
    expect(screen.getAllByText(/5-15 min/).length).toBeGreaterThan(0);
    expect(screen.getByRole("link", { name: "7th place at a hackathon" })).toHaveAttribute("href", "/awards");
    const site = screen.getByRole("navigation", { name: "Site" });
    expect(within(site).getByRole("link", { name: "Features" })).toHaveAttribute("href", "/features");
    expect(within(site).getByRole("link", { name: "About" })).toHaveAttribute("href", "/about");
    expect(within(site).getByRole("link", { name: "Contact" })).toHaveAttribute("href", "/contact");
    expect(screen.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
    expect(screen.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup");
    expect(screen.getByText(/own OpenRouter key/)).toBeInTheDocument();
  });

  it("the awards page links to the external winner and project pages in a new tab", async () => {
    renderApp("/awards");
    await screen.findByRole("heading", { name: "Hackathon finalist: 7th place overall" });
    for (const [name, href] of [
      [/See the winners/, AWARD_LINKS.winners],
      [/Our project page/, AWARD_LINKS.project],
      [/About the hackathon/, AWARD_LINKS.hackathon],
    ] as const) {
      const link = screen.getByRole("link", { name });
      expect(link).toHaveAttribute("href", href);
      expect(link).toHaveAttribute("target", "_blank");
      expect(link).toHaveAttribute("rel", "noopener noreferrer");
      expect(href.startsWith("https://")).toBe(true);
    }
  });

  it("the features and about pages have real content", async () => {
    renderApp("/features");
    expect(
      await screen.findByRole("heading", { name: "Everything you need to choose a model with evidence" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Compare 10+ models side by side" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Bring your own key" })).toBeInTheDocument();
  });

  it("the about page tells the story and links to the award and contact", async () => {
    renderApp("/about");
    expect(
      await screen.findByRole("heading", { name: "Choosing an AI model should not be guesswork" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Read about the award" })).toHaveAttribute("href", "/awards");
    expect(screen.getByRole("link", { name: "Contact us" })).toHaveAttribute("href", "/contact");
  });
});
