import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";

import { api } from "../../convex/_generated/api";

export type Viewer = NonNullable<FunctionReturnType<typeof api.users.viewer>>;

/** The signed-in user: undefined while loading, null when signed out. */
export function useViewer(): Viewer | null | undefined {
  return useQuery(api.users.viewer);
}
