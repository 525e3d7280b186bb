// The model catalog for the pickers and the price, with a refresh asked for when it is stale.
import { useMutation, useQuery } from "convex/react";
import { useEffect, useMemo, useRef, useState } from "react";

import { api } from "../../../convex/_generated/api";
import { isCatalogStale } from "../../../convex/lib/tiers";
import type { CatalogModel, PriceCatalog } from "../../../convex/lib/types";

/** How long an empty catalog waits for its refresh before the page stops waiting for it. */
const REFRESH_WAIT_MS = 15_000;

export interface Catalog {
  /** Undefined while loading. */
  models: readonly CatalogModel[] | undefined;
  byId: ReadonlyMap<string, CatalogModel>;
  ids: ReadonlySet<string>;
  prices: PriceCatalog;
  isLoading: boolean;
  /** A refresh was asked for and has not arrived yet. */
  isRefreshing: boolean;
  /** Loaded, and not an empty catalog still waiting for its first refresh. */
  isReady: boolean;
}

export function useCatalog(): Catalog {
  const data = useQuery(api.models.list);
  const requestRefresh = useMutation(api.models.requestRefresh);
  const requested = useRef(false);
  const [refreshing, setRefreshing] = useState<{ since: number | null } | null>(null);

  useEffect(() => {
    if (!data || requested.current) return;
    if (data.models.length > 0 && !isCatalogStale(data.lastUpdated ?? undefined, Date.now())) return;
    requested.current = true;
    setRefreshing({ since: data.lastUpdated });
    requestRefresh({})
      .then((scheduled) => {
        if (!scheduled) setRefreshing(null);
      })
      .catch(() => setRefreshing(null));
  }, [data, requestRefresh]);

  // Done when the catalog's time moves on, or after a while if the gateway never answers.
  const lastUpdated = data?.lastUpdated;
  useEffect(() => {
    if (!refreshing) return;
    if (lastUpdated !== undefined && lastUpdated !== refreshing.since) {
      setRefreshing(null);
      return;
    }
    const timer = setTimeout(() => setRefreshing(null), REFRESH_WAIT_MS);
    return () => clearTimeout(timer);
  }, [refreshing, lastUpdated]);

  const models: readonly CatalogModel[] | undefined = data?.models;
  return useMemo(() => {
    const list = models ?? [];
    const byId = new Map(list.map((model) => [model.id, model]));
    const prices: PriceCatalog = Object.fromEntries(list.map((model) => [model.id, model.pricing]));
    const isLoading = models === undefined;
    const isRefreshing = refreshing !== null;
    return {
      models,
      byId,
      ids: new Set(byId.keys()),
      prices,
      isLoading,
      isRefreshing,
      isReady: !isLoading && !(list.length === 0 && isRefreshing),
    };
  }, [models, refreshing]);
}
