import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";

import { QueryErrorBoundary } from "@/components/query-error-boundary";

import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";

export type TeamSummary = FunctionReturnType<typeof api.teams.mine>[number];

/** Where the lists look: the caller's personal space (teamId null) or one of their teams. */
export interface SpaceState {
  /** The chosen team, or null for the personal space. Known before the teams load (from storage). */
  teamId: Id<"teams"> | null;
  /** The chosen team with the caller's role; undefined while loading, null in the personal space. */
  team: TeamSummary | null | undefined;
  /** The caller's teams; undefined while loading. */
  teams: TeamSummary[] | undefined;
  /** Picks a team, or the personal space with null. */
  selectSpace: (teamId: Id<"teams"> | null) => void;
}

export const SPACE_STORAGE_KEY = "modeljury.space";

function storage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined; // Storage can be blocked; the choice then lasts for the page's life.
  }
}

export function readStoredSpace(): Id<"teams"> | null {
  const value = storage()?.getItem(SPACE_STORAGE_KEY);
  return value ? (value as Id<"teams">) : null;
}

function storeSpace(teamId: Id<"teams"> | null) {
  const store = storage();
  if (!store) return;
  if (teamId === null) store.removeItem(SPACE_STORAGE_KEY);
  else store.setItem(SPACE_STORAGE_KEY, teamId);
}

const PERSONAL: SpaceState = { teamId: null, team: null, teams: undefined, selectSpace: () => {} };

const SpaceContext = createContext<SpaceState>(PERSONAL);

/**
 * Holds the chosen space for the signed-in screens. The choice is kept in localStorage; when the
 * caller is no longer in the stored team (removed, left, team deleted), it falls back to Personal.
 */
export function SpaceProvider({ children }: { children: ReactNode }) {
  const [teams, setTeams] = useState<TeamSummary[] | undefined>(undefined);
  const [chosen, setChosen] = useState<Id<"teams"> | null>(readStoredSpace);

  // A team chosen the moment it is created or joined reaches the list of teams a little later;
  // until it does, it is loading, not lost.
  const [awaiting, setAwaiting] = useState<Id<"teams"> | null>(null);
  const selectSpace = useCallback((teamId: Id<"teams"> | null) => {
    storeSpace(teamId);
    setChosen(teamId);
    setAwaiting(teamId);
  }, []);

  const listed = chosen === null ? undefined : teams?.find((row) => row.teamId === chosen);
  const team =
    chosen === null ? null : teams === undefined ? undefined : (listed ?? (awaiting === chosen ? undefined : null));
  useEffect(() => {
    if (awaiting !== null && listed !== undefined) setAwaiting(null);
  }, [awaiting, listed]);
  const lost = chosen !== null && team === null;
  useEffect(() => {
    if (lost) selectSpace(null);
  }, [lost, selectSpace]);

  const value = useMemo<SpaceState>(
    () => ({ teamId: lost ? null : chosen, team, teams, selectSpace }),
    [chosen, lost, team, teams, selectSpace],
  );
  return (
    <SpaceContext.Provider value={value}>
      {/* Apart from the page: if the list cannot load, the shell and the page still work (Personal). */}
      <QueryErrorBoundary fallback={() => null}>
        <MyTeams onChange={setTeams} />
      </QueryErrorBoundary>
      {children}
    </SpaceContext.Provider>
  );
}

function MyTeams({ onChange }: { onChange: (teams: TeamSummary[] | undefined) => void }) {
  const teams = useQuery(api.teams.mine);
  useEffect(() => onChange(teams), [teams, onChange]);
  return null;
}

/** The chosen space; outside the signed-in shell, always Personal. */
export function useSpace(): SpaceState {
  return useContext(SpaceContext);
}
