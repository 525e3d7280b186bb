// What a component test's page downloads (src/lib/download.ts): each file's name and text, in order.
import { vi } from "vitest";

export interface Download {
  name: string;
  text: Promise<string>;
}

/** Captures the page's downloads from here on (restored by vi.restoreAllMocks). */
export function captureDownloads(): Download[] {
  const downloads: Download[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    downloads.push({ name: "", text: blob.text() });
    return "blob:test";
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    downloads.at(-1)!.name = this.download;
  });
  return downloads;
}
