import { useMutation } from "convex/react";
import { CheckIcon, CopyIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "sonner";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { errorMessage } from "@/lib/errors";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";

export const COPIED_MS = 2_000;
export const SHARE_NOTE =
  "Anyone with this link can see this test's rankings and metrics, sample responses and configuration. No account data (your email, profile or payments) is shared.";

export function shareUrl(shareId: string, origin = window.location.origin): string {
  return `${origin}/shared/${shareId}`;
}

interface ShareDialogProps {
  testId: Id<"tests">;
  share: { shareId: string; isActive: boolean } | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Sharing on or off, the public link and a copy button (spec part 2 §2, §4). */
export function ShareDialog({ testId, share, open, onOpenChange }: ShareDialogProps) {
  const enable = useMutation(api.shares.enable);
  const disable = useMutation(api.shares.disable);
  const [pending, setPending] = useState<"enabling" | "disabling" | null>(null);
  const [copied, setCopied] = useState(false);
  const active = share?.isActive === true;

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  async function toggle(next: boolean) {
    setPending(next ? "enabling" : "disabling");
    try {
      if (next) await enable({ testId });
      else await disable({ testId });
    } catch (error) {
      toast.error(errorMessage(error, next ? "Failed to create the shareable link." : "Failed to turn sharing off."));
    } finally {
      setPending(null);
    }
  }

  async function copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      toast.error("Could not copy the link. Select it and copy it yourself.");
    }
  }

  const link = active && share ? shareUrl(share.shareId) : null;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Share Results</DialogTitle>
          <DialogDescription>Create a public, read-only link to these results.</DialogDescription>
        </DialogHeader>
        <div className="flex items-center justify-between gap-4 rounded-md border p-3">
          <div className="space-y-0.5">
            <Label htmlFor="share-toggle">Public sharing</Label>
            <p className="text-xs text-muted-foreground">
              {active
                ? "Anyone with the link can view these results."
                : "Sharing is off. Only you can see these results."}
            </p>
          </div>
          <Switch
            id="share-toggle"
            checked={pending === "enabling" ? true : pending === "disabling" ? false : active}
            disabled={pending !== null}
            onCheckedChange={(next) => void toggle(next)}
          />
        </div>
        {pending === "enabling" && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
            <Spinner label="Creating link" /> Creating shareable link...
          </p>
        )}
        {link && pending === null && (
          <div className="grid gap-2">
            <Label htmlFor="share-link">Shareable link</Label>
            <div className="flex gap-2">
              <Input id="share-link" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
              <Button
                type="button"
                variant="outline"
                onClick={() => void copy(link)}
                aria-label={copied ? "Copied" : "Copy link"}
              >
                {copied ? <CheckIcon /> : <CopyIcon />}
                {copied ? "Copied!" : "Copy"}
              </Button>
            </div>
          </div>
        )}
        <p className="rounded-md bg-muted/50 p-3 text-xs text-muted-foreground">{SHARE_NOTE}</p>
      </DialogContent>
    </Dialog>
  );
}
