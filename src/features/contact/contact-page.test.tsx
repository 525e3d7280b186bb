import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { describe, expect, it } from "vitest";

import { callMock, mockCall } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import { CONTACT_SUBJECTS } from "../../../convex/lib/contact";

async function renderContact() {
  renderApp("/contact");
  await screen.findByRole("heading", { name: "Get in touch" });
  return userEvent.setup();
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText("Name"), "Ada Lovelace");
  await user.type(screen.getByLabelText("Email"), "ada@example.com");
  await user.selectOptions(screen.getByLabelText("Subject"), "Feature Request");
  await user.type(screen.getByLabelText("Message"), "Please add charts.");
}

describe("contact page", () => {
  it("is public and has the fields, the seven subjects and the counter", async () => {
    await renderContact();
    expect(screen.getByLabelText("Name")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    const options = [...(screen.getByLabelText("Subject") as HTMLSelectElement).options].filter(
      (option) => !option.disabled,
    );
    expect(options.map((option) => option.value)).toEqual([...CONTACT_SUBJECTS]);
    expect(screen.getByTestId("message-counter")).toHaveTextContent("0/1000");
    expect(screen.getByRole("heading", { name: "Frequently asked questions" })).toBeInTheDocument();
  });

  it("hides the honeypot from people and assistive technology", async () => {
    await renderContact();
    const honeypot = document.getElementById("contact-website") as HTMLInputElement;
    expect(honeypot.name).toBe("website");
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.closest("[aria-hidden='true']")).not.toBeNull();
    expect(screen.queryByRole("textbox", { name: "Website" })).not.toBeInTheDocument();
  });

  it("counts the message, and a long one is not cut off", async () => {
    const user = await renderContact();
    await user.type(screen.getByLabelText("Message"), "Hello");
    expect(screen.getByTestId("message-counter")).toHaveTextContent("5/1000");
    await user.click(screen.getByLabelText("Message"));
    await user.paste("x".repeat(1100));
    expect(screen.getByTestId("message-counter")).toHaveTextContent("1105/1000");
  });

  it("validates before sending", async () => {
    const user = await renderContact();
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Send Message" }));
    expect(screen.getByText("Please enter your name.")).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid email address.")).toBeInTheDocument();
    expect(screen.getByText("Please choose a subject.")).toBeInTheDocument();
    expect(screen.getByText("Please enter a message.")).toBeInTheDocument();
    expect(callMock("contact:submit")).not.toHaveBeenCalled();
  });

  it("sends, shows the success banner and clears the form", async () => {
    let finish: (value: unknown) => void = () => {};
    mockCall("contact:submit", () => new Promise((resolve) => (finish = resolve)));
    const user = await renderContact();
    await fill(user);
    await user.click(screen.getByRole("button", { name: "Send Message" }));
    expect(await screen.findByRole("button", { name: /Sending/ })).toBeDisabled();
    finish({ received: true });
    expect(await screen.findByText("Message sent successfully!")).toBeInTheDocument();
    expect(screen.getByText("We'll get back to you within 24 hours.")).toBeInTheDocument();
    expect(callMock("contact:submit")).toHaveBeenCalledWith({
      name: "Ada Lovelace",
      email: "ada@example.com",
      subject: "Feature Request",
      message: "Please add charts.",
      website: "",
    });
    expect(screen.getByLabelText("Name")).toHaveValue("");
    expect(screen.getByLabelText("Message")).toHaveValue("");
    expect(screen.getByLabelText("Subject")).toHaveValue("");
  });

  it("shows 'Failed to send message' with the server's reason", async () => {
    mockCall("contact:submit", async () => {
      throw new ConvexError({ code: "RATE_LIMITED", message: "Please wait 10 minutes before sending another." });
    });
    const user = await renderContact();
    await fill(user);
    await user.click(screen.getByRole("button", { name: "Send Message" }));
    const banner = await screen.findByRole("alert");
    expect(banner).toHaveTextContent("Failed to send message");
    expect(banner).toHaveTextContent("Please wait 10 minutes before sending another.");
    await waitFor(() => expect(screen.getByLabelText("Name")).toHaveValue("Ada Lovelace"));
  });
});
