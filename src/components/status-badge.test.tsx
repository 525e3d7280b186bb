import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { StatusBadge, statusLabel, statusTone } from "./status-badge";

describe("StatusBadge", () => {
  it("colours test and job statuses as the spec says", () => {
    expect(statusTone("completed")).toBe("success");
    expect(statusTone("running")).toBe("active");
    expect(statusTone("processing")).toBe("active");
    expect(statusTone("failed")).toBe("danger");
    expect(statusTone("pending")).toBe("waiting");
    expect(statusTone("pending_payment")).toBe("waiting");
    expect(statusTone("cancelled")).toBe("muted");
  });

  it("labels statuses in words", () => {
    expect(statusLabel("pending_payment")).toBe("Pending Payment");
    render(<StatusBadge status="running" />);
    expect(screen.getByText("Running")).toHaveAttribute("data-tone", "active");
  });
});
