import { Link } from "@tanstack/react-router";
import { CheckIcon, ChevronsUpDownIcon, SettingsIcon, UserIcon, UsersIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { ROLE_LABELS } from "../../../convex/lib/teams";
import { useSpace } from "@/lib/space-context";

/** The navigation's space picker: Personal, then the caller's teams, then a way to manage them. */
export function SpaceSwitcher() {
  const { teamId, team, teams, selectSpace } = useSpace();
  const current = teamId === null ? "Personal" : (team?.name ?? "Team");

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" className="max-w-48 min-w-0 shrink gap-2" aria-label={`Space: ${current}`}>
          {teamId === null ? <UserIcon /> : <UsersIcon />}
          <span className="truncate">{current}</span>
          <ChevronsUpDownIcon className="opacity-60" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-60">
        <DropdownMenuLabel>Space</DropdownMenuLabel>
        <DropdownMenuItem onSelect={() => selectSpace(null)}>
          <UserIcon /> <span className="flex-1">Personal</span>
          {teamId === null && <CheckIcon aria-label="Selected" />}
        </DropdownMenuItem>
        {teams === undefined ? (
          <DropdownMenuItem disabled>Loading teams…</DropdownMenuItem>
        ) : (
          teams.map((row) => (
            <DropdownMenuItem key={row.teamId} onSelect={() => selectSpace(row.teamId)}>
              <UsersIcon />
              <span className="flex-1 truncate">{row.name}</span>
              <span className="text-xs text-muted-foreground">{ROLE_LABELS[row.role]}</span>
              {teamId === row.teamId && <CheckIcon aria-label="Selected" />}
            </DropdownMenuItem>
          ))
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/dashboard/teams">
            <SettingsIcon /> Manage teams
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
