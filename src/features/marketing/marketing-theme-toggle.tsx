import { useTheme } from "@/components/theme-provider";
import { buttonVariants } from "@/components/ui/button-variants";
import { MoonIcon, SunIcon } from "@/features/marketing/icons";
import { THEME_TOGGLE_ATTRIBUTE, useStaticMarkup } from "@/features/marketing/static-markup";

/**
 * A one-click light/dark switch for the public pages. The app's ThemeToggle is a dropdown menu,
 * whose menu and positioning code would add about 28 KB gzipped to the landing page.
 */
export function MarketingThemeToggle() {
  return useStaticMarkup() ? <StaticThemeToggle /> : <LiveThemeToggle />;
}

/** Both icons, one shown by the `dark` class; the landing page's script handles the click. */
function StaticThemeToggle() {
  return (
    <button
      type="button"
      className={buttonVariants({ variant: "ghost", size: "icon" })}
      aria-label="Switch theme"
      {...{ [THEME_TOGGLE_ATTRIBUTE]: "" }}
    >
      <SunIcon className="hidden dark:block" />
      <MoonIcon className="dark:hidden" />
    </button>
  );
}

function LiveThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  const next = resolvedTheme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className={buttonVariants({ variant: "ghost", size: "icon" })}
      aria-label={`Switch to ${next} theme`}
      onClick={() => setTheme(next)}
    >
      {resolvedTheme === "dark" ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
