import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { Markdown } from "@/components/markdown";

describe("Markdown", () => {
  it("renders Markdown formatting", () => {
    render(<Markdown>{"# Title\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n- two"}</Markdown>);
    expect(screen.getByRole("heading", { name: "Title" })).toBeInTheDocument();
    expect(screen.getByText("bold").tagName).toBe("STRONG");
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    const link = screen.getByRole("link", { name: "link" });
    expect(link).toHaveAttribute("href", "https://example.com");
    expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
  });

  it("never turns model output into live HTML: no scripts, no event handlers, no javascript: links", () => {
    const hostile = [
      "Hello <script>window.__pwned = true</script>",
      '<img src="x" onerror="window.__pwned = true">',
      '<a href="https://example.com" onclick="window.__pwned = true">click</a>',
      "[run](javascript:window.__pwned=true)",
      '<iframe src="https://evil.example"></iframe>',
    ].join("\n\n");
    const { container } = render(<Markdown>{hostile}</Markdown>);

    expect(container.querySelector("script, iframe, img")).toBeNull();
    for (const element of container.querySelectorAll("*")) {
      for (const attribute of element.getAttributeNames()) expect(attribute).not.toMatch(/^on/i);
    }
    for (const link of container.querySelectorAll("a")) {
      expect(link.getAttribute("href") ?? "").not.toMatch(/^\s*javascript:/i);
    }
    expect((window as unknown as { __pwned?: boolean }).__pwned).toBeUndefined();
    expect(container).toHaveTextContent("Hello");
  });

  it("shows an image as an inert placeholder with its address, and never loads it", () => {
    const { container } = render(
      <Markdown>
        {
          "Look: ![tracking pixel](https://tracker.example/p.png?who=you)\n\n[![badge](https://img.example/b.svg)](https://site.example)"
        }
      </Markdown>,
    );
    expect(container.querySelector("img, picture, source, [src], [srcset]")).toBeNull();
    expect(container).toHaveTextContent("Image not loaded: tracking pixel (https://tracker.example/p.png?who=you)");
    expect(container).toHaveTextContent("Image not loaded: badge (https://img.example/b.svg)");
  });

  it("shows a link's real address beside its text; an address written out is not repeated", () => {
    const { container } = render(
      <Markdown>
        {"[Your bank](https://phish.example/login) and <https://plain.example/> and [mail us](mailto:a@b.example)"}
      </Markdown>,
    );
    const link = screen.getByRole("link", { name: "Your bank" });
    expect(link).toHaveAttribute("href", "https://phish.example/login");
    expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
    expect(link).toHaveAttribute("target", "_blank");
    expect(container).toHaveTextContent("Your bank (https://phish.example/login)");
    expect(container).toHaveTextContent("mail us (a@b.example)");
    expect(container.textContent?.match(/plain\.example/g)).toHaveLength(1);
  });
});
