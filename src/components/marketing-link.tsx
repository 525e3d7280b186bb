import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType } from "react";

// The landing page also ships as its own small entry (landing.html, src/landing-main.tsx) without
// the router, to keep its JavaScript light (issue 7). The public pages' shared parts therefore
// link through this: plain anchors by default, the router's Link inside the app.

export type MarketingLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string };

function PlainLink({ to, ...props }: MarketingLinkProps) {
  return <a href={to} {...props} />;
}

const LinkComponentContext = createContext<ComponentType<MarketingLinkProps>>(PlainLink);

export const MarketingLinkProvider = LinkComponentContext.Provider;

export function MarketingLink(props: MarketingLinkProps) {
  const LinkComponent = useContext(LinkComponentContext);
  return <LinkComponent {...props} />;
}
