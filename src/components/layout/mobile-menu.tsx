import { Link } from "@tanstack/react-router";
import { CreditCardIcon, GaugeIcon, LogOutIcon, MenuIcon, SettingsIcon, UsersIcon } from "lucide-react";
import { useState } from "react";

import { AccountSummary, UserAvatar } from "@/components/layout/user-menu";
import { type NavItem } from "@/components/layout/nav-items";
import { USAGE_SECTION_ID } from "@/lib/navigation";
import { Button } from "@/components/ui/button";
import { Separator } from "@/components/ui/separator";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { useSignOut } from "@/hooks/use-sign-out";
import type { Viewer } from "@/hooks/use-viewer";

const itemClass =
  "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-accent hover:text-accent-foreground [&_svg]:size-4";
const activeItemClass = "bg-accent text-accent-foreground";

/** The navigation below the md breakpoint: the same entries as the bar and the user menu. */
export function MobileMenu({ items, viewer }: { items: readonly NavItem[]; viewer: Viewer | null | undefined }) {
  const [open, setOpen] = useState(false);
  const signOut = useSignOut();
  const close = () => setOpen(false);

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu">
          <MenuIcon />
        </Button>
      </SheetTrigger>
      <SheetContent side="right" className="w-72 gap-0">
        <SheetHeader>
          <SheetTitle>Menu</SheetTitle>
          <SheetDescription className="sr-only">Navigation and account</SheetDescription>
        </SheetHeader>
        {viewer && (
          <div className="flex items-center gap-3 px-4 pb-4">
            <UserAvatar viewer={viewer} />
            <AccountSummary viewer={viewer} />
          </div>
        )}
        <Separator />
        <nav aria-label="Mobile" className="flex flex-col gap-1 p-2">
          {items.map(({ label, to, icon: Icon }) => (
            <Link key={to} to={to} onClick={close} className={itemClass} activeProps={{ className: activeItemClass }}>
              <Icon /> {label}
            </Link>
          ))}
        </nav>
        <Separator />
        <div className="flex flex-col gap-1 p-2">
          <Link to="/dashboard/settings" onClick={close} className={itemClass}>
            <SettingsIcon /> Account Settings
          </Link>
          <Link to="/dashboard/settings" hash={USAGE_SECTION_ID} onClick={close} className={itemClass}>
            <GaugeIcon /> Usage
          </Link>
          <Link to="/dashboard/billing" onClick={close} className={itemClass}>
            <CreditCardIcon /> Billing &amp; Credits
          </Link>
          <Link to="/dashboard/teams" onClick={close} className={itemClass}>
            <UsersIcon /> Teams
          </Link>
          <button
            type="button"
            className={itemClass}
            onClick={() => {
              close();
              void signOut();
            }}
          >
            <LogOutIcon /> Sign Out
          </button>
        </div>
      </SheetContent>
    </Sheet>
  );
}
