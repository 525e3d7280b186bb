import { useTheme } from "@/components/theme-provider";
import { buttonVariants } from "@/components/ui/button-variants";
import { MoonIcon, SunIcon } from "@/features/marketing/icons";

/**
 * A one-click light/dark switch for the public pages. The app's ThemeToggle is a dropdown menu,
 * whose menu and positioning code would add about 28 KB gzipped to the landing page.
 */
export function MarketingThemeToggle() {
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
