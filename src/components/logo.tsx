import { clsx } from "clsx";

// clsx, not cn: the public pages show the logo and can't afford tailwind-merge (the landing
// page's JavaScript budget is 60 KB gzipped).

/** The ModelJury mark: a balance scale, the same drawing as public/favicon.svg. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={clsx("size-7", className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <g fill="none" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" className="stroke-primary-foreground">
        <path d="M16 7v17M11 24h10M8 11h16" />
        <path d="M8 11l-3.5 7h7zM24 11l-3.5 7h7z" />
      </g>
    </svg>
  );
}

/** Mark and name; wrap it in a link where it navigates. `nameClassName`: hides the name on phones. */
export function Logo({ className, nameClassName }: { className?: string; nameClassName?: string }) {
  return (
    <span className={clsx("inline-flex items-center gap-2 text-lg font-semibold tracking-tight", className)}>
      <LogoMark />
      <span className={nameClassName}>ModelJury</span>
    </span>
  );
}
