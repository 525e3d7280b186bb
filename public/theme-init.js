// Applies the stored theme before the first paint, for both HTML entries (same key and rules as
// src/lib/theme.ts). Loaded as a blocking script in <head>.
(function () {
  try {
    var stored = localStorage.getItem("modeljury-theme");
    var theme = stored === "light" || stored === "dark" ? stored : "system";
    var dark = theme === "dark" || (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
    document.documentElement.classList.toggle("dark", dark);
  } catch {
    // Storage can be blocked; the page then follows the system theme once the app loads.
  }
})();
