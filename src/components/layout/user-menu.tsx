import { Link } from "@tanstack/react-router";
import { CreditCardIcon, GaugeIcon, LogOutIcon, SettingsIcon, UsersIcon } from "lucide-react";

import { USAGE_SECTION_ID } from "@/lib/navigation";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useSignOut } from "@/hooks/use-sign-out";
import type { Viewer } from "@/hooks/use-viewer";
import { shortId } from "../../../convex/lib/format";

export function initialsOf(viewer: Pick<Viewer, "email" | "fullName">): string {
  const source = viewer.fullName?.trim() || viewer.email;
  const words = source.split(/[\s@._-]+/).filter(Boolean);
  const initials = words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? "?").slice(0, 2);
  return initials.toUpperCase();
}

export function UserAvatar({ viewer, className }: { viewer: Viewer; className?: string }) {
  return (
    <Avatar className={className}>
      {viewer.avatarUrl && <AvatarImage src={viewer.avatarUrl} alt="" />}
      <AvatarFallback className="text-xs font-medium">{initialsOf(viewer)}</AvatarFallback>
    </Avatar>
  );
}

/** Email and the first 8 characters of the account id (spec part 1 §2). */
export function AccountSummary({ viewer }: { viewer: Viewer }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <span className="truncate text-sm font-medium" data-testid="account-email">
        {viewer.email}
      </span>
      <span className="font-mono text-xs text-muted-foreground" data-testid="account-id">
        ID: {shortId(viewer._id)}
      </span>
    </div>
  );
}

export function UserMenu({ viewer }: { viewer: Viewer }) {
  const signOut = useSignOut();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" aria-label="User menu">
          <UserAvatar viewer={viewer} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="font-normal">
          <AccountSummary viewer={viewer} />
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          <DropdownMenuItem asChild>
            <Link to="/dashboard/settings">
              <SettingsIcon /> Account Settings
            </Link>
          </DropdownMenuItem>
          {/* Where users connect their own gateway key (spec part 1 §1). */}
          <DropdownMenuItem asChild>
            <Link to="/dashboard/settings" hash={USAGE_SECTION_ID}>
              <GaugeIcon /> Usage
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to="/dashboard/billing">
              <CreditCardIcon /> Billing &amp; Credits
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to="/dashboard/teams">
              <UsersIcon /> Teams
            </Link>
          </DropdownMenuItem>
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut()}>
          <LogOutIcon /> Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
