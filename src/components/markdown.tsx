import { ImageOffIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { Components } from "react-markdown";
import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";

import { cn } from "@/lib/utils";

// Model output is untrusted (ARCHITECTURE §1): it is rendered as Markdown only, never as HTML.
// Raw HTML in the text is not parsed (no rehype-raw) and rehype-sanitize drops whatever would
// still be unsafe (javascript: links, event handlers, unknown elements). Nothing in it may make
// the viewer's browser fetch anything (shared pages are public): an image is shown as an inert placeholder with
// its address as text, never loaded (it could track who reads a shared page, or leak its
// address through the referrer); a link opens only when clicked, in a new tab without opener,
// referrer or endorsement, and shows its real address beside its text.
const REHYPE_PLUGINS = [rehypeSanitize];

function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  return "";
}

/** What an address looks like written out: mailto: without its scheme, the rest as given. */
function shownAddress(href: string): string {
  return href.startsWith("mailto:") ? href.slice("mailto:".length) : href;
}

const COMPONENTS: Components = {
  a: ({ node: _node, href, children, ...props }) => {
    const address = href ? shownAddress(href) : "";
    const showAddress = address !== "" && textOf(children).trim() !== address;
    return (
      <>
        <a {...props} href={href} title={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
        {showAddress && (
          <span data-slot="link-address" className="text-xs break-all text-muted-foreground">
            {" "}
            ({address})
          </span>
        )}
      </>
    );
  },
  img: ({ src, alt }) => {
    const address = typeof src === "string" ? src : "";
    return (
      <span
        data-slot="blocked-image"
        className="inline-flex max-w-full items-center gap-1 rounded border border-dashed px-1.5 py-0.5 align-middle text-xs text-muted-foreground"
      >
        <ImageOffIcon aria-hidden="true" className="size-3.5 shrink-0" />
        <span className="break-all">
          Image not loaded{alt ? `: ${alt}` : ""}
          {address && ` (${address})`}
        </span>
      </span>
    );
  },
};

/** Markdown from a model or a user, sanitized, styled for reading in cards and dialogs. */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div
      data-slot="markdown"
      className={cn(
        "space-y-3 text-sm leading-relaxed break-words",
        "[&_h1]:text-lg [&_h1]:font-semibold [&_h2]:text-base [&_h2]:font-semibold [&_h3]:font-semibold [&_h4]:font-medium",
        "[&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-5",
        "[&_a]:text-primary [&_a]:underline [&_a]:underline-offset-2",
        "[&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground",
        "[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-xs",
        "[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0",
        "[&_table]:w-full [&_table]:border-collapse [&_td]:border [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:px-2 [&_th]:py-1 [&_th]:text-left",
        "[&_hr]:border-border",
        className,
      )}
    >
      <ReactMarkdown rehypePlugins={REHYPE_PLUGINS} components={COMPONENTS}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
