import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType } from "react";

import type { FileRoutesByTo } from "@/routeTree.gen";

// The landing page also ships as its own small entry (landing.html, src/landing-main.tsx) without
// the router, to keep its JavaScript light. The public pages' shared parts therefore link through
// this: plain anchors by default, the router's Link inside the app. `to` is a path of the route
// tree (a type-only import, so the landing chunk stays free of the router), checked like a Link's.

export type MarketingLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: keyof FileRoutesByTo };

function PlainLink({ to, ...props }: MarketingLinkProps) {
  return <a href={to} {...props} />;
}

const LinkComponentContext = createContext<ComponentType<MarketingLinkProps>>(PlainLink);

export const MarketingLinkProvider = LinkComponentContext.Provider;

export function MarketingLink(props: MarketingLinkProps) {
  const LinkComponent = useContext(LinkComponentContext);
  return <LinkComponent {...props} />;
}
