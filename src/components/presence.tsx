// Who else is looking at the same test (ARCHITECTURE §6). A page joins a room with a heartbeat
// every few seconds and says goodbye when it closes; the server lists the others seen lately.
// Rooms: `test:<testId>` on a test's monitor, results and review pages, `share:<shareId>` on a
// shared page (the server maps both to the test's room, so everyone sees each other). Each page
// says which it is, and teammates are shown with it: "AL · Results".
import { useMutation, useQuery } from "convex/react";
import { EyeIcon, UserIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";

import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";

import { api } from "../../convex/_generated/api";
import { PRESENCE_PAGE_LABELS, type PresencePage } from "../../convex/lib/presence";

export type { PresencePage };

export const HEARTBEAT_MS = 5_000;
const CLIENT_ID_KEY = "modeljury.presenceClientId";
const MAX_AVATARS = 5;

export interface PresenceViewer {
  id: string;
  /** Initials of a signed-in viewer, or 'anonymous viewer'. */
  label: string;
  anonymous: boolean;
  /** The page they are on (null: not told). */
  page: PresencePage | null;
}

/** "AL · Results"; an anonymous viewer is 'anonymous viewer' whatever the page. */
export function viewerLabel(viewer: PresenceViewer): string {
  if (viewer.anonymous) return "anonymous viewer";
  return viewer.page ? `${viewer.label} · ${PRESENCE_PAGE_LABELS[viewer.page]}` : viewer.label;
}

function randomClientId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** One id per browser tab, so two tabs of one anonymous visitor count as two viewers. */
function tabClientId(): string {
  try {
    const existing = window.sessionStorage.getItem(CLIENT_ID_KEY);
    if (existing) return existing;
    const id = randomClientId();
    window.sessionStorage.setItem(CLIENT_ID_KEY, id);
    return id;
  } catch {
    return randomClientId();
  }
}

/**
 * How many others are in the room and, for a signed-in viewer, who (an anonymous viewer of a
 * shared page gets the count only).
 */
export interface PresenceRoom {
  count: number;
  viewers: PresenceViewer[];
}

/**
 * Joins `room` on `page` while mounted (null: not yet known) and returns the other viewers there;
 * undefined while loading. Presence never breaks a page: failed beats are ignored, and a room
 * the server calls gone is beaten no more.
 */
export function usePresence(room: string | null, page: PresencePage): PresenceRoom | undefined {
  const [clientId] = useState(tabClientId);
  const heartbeat = useMutation(api.presence.heartbeat);
  const leave = useMutation(api.presence.leave);
  const calls = useRef({ heartbeat, leave });
  calls.current = { heartbeat, leave };

  useEffect(() => {
    if (!room) return;
    const args = { room, clientId, page };
    // Every beat says when this page opened: of a viewer's tabs, the page opened last is shown.
    // A room that is gone (test deleted, share turned off) ends the beats, quietly.
    const arrivedAt = Date.now();
    const beat = () => {
      Promise.resolve(calls.current.heartbeat({ ...args, arrivedAt }))
        .then((answer) => {
          if (answer === "gone") window.clearInterval(timer);
        })
        .catch(() => {});
    };
    const goodbye = () => {
      Promise.resolve(calls.current.leave(args)).catch(() => {});
    };
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    beat();
    window.addEventListener("pagehide", goodbye);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("pagehide", goodbye);
      goodbye();
    };
  }, [room, clientId, page]);

  return useQuery(api.presence.viewers, room ? { room, clientId } : "skip");
}

/**
 * Avatars of the room's other viewers, with 'N others viewing'; nothing when alone. An anonymous
 * viewer is told only the count.
 */
export function ViewerAvatars({
  room,
  page,
  className,
}: {
  room: string | null;
  page: PresencePage;
  className?: string;
}) {
  const presence = usePresence(room, page);
  if (!presence || presence.count === 0) return null;
  const { count, viewers } = presence;
  const summary = `${count} other${count === 1 ? "" : "s"} viewing`;
  if (viewers.length === 0) {
    return (
      <div
        data-testid="viewer-count"
        role="group"
        aria-label={summary}
        className={cn("flex items-center gap-2 text-xs text-muted-foreground", className)}
      >
        <EyeIcon className="size-3.5" aria-hidden="true" />
        <span>{summary}</span>
      </div>
    );
  }
  const shown = viewers.slice(0, MAX_AVATARS);
  const names = viewers.map(viewerLabel).join(", ");
  // Who is where, in words: "AL · Results, GH · Monitor".
  const named = shown.filter((viewer) => !viewer.anonymous);
  return (
    <div
      data-testid="viewer-avatars"
      role="group"
      aria-label={`Also viewing: ${names}`}
      className={cn("flex items-center gap-2 text-xs text-muted-foreground", className)}
    >
      <EyeIcon className="size-3.5" aria-hidden="true" />
      <div className="flex -space-x-2">
        {shown.map((viewer) => (
          <Tooltip key={viewer.id}>
            <TooltipTrigger asChild>
              <span
                className={cn(
                  "flex size-7 items-center justify-center rounded-full border-2 border-background text-[11px] font-semibold",
                  viewer.anonymous ? "bg-muted text-muted-foreground" : "bg-primary text-primary-foreground",
                )}
              >
                {viewer.anonymous ? <UserIcon className="size-3.5" aria-hidden="true" /> : viewer.label}
                <span className="sr-only">{viewer.anonymous ? "anonymous viewer" : viewer.label}</span>
              </span>
            </TooltipTrigger>
            <TooltipContent>
              {viewer.anonymous
                ? "Anonymous viewer"
                : viewer.page
                  ? `${viewer.label} is on the ${PRESENCE_PAGE_LABELS[viewer.page]} page`
                  : `${viewer.label} is viewing`}
            </TooltipContent>
          </Tooltip>
        ))}
        {viewers.length > shown.length && (
          <span className="flex size-7 items-center justify-center rounded-full border-2 border-background bg-muted text-[11px] font-semibold">
            +{viewers.length - shown.length}
          </span>
        )}
      </div>
      {named.length > 0 && <span data-testid="viewer-pages">{named.map(viewerLabel).join(", ")}</span>}
      <span>{summary}</span>
    </div>
  );
}
