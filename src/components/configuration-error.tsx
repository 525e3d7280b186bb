import { Logo } from "@/components/logo";

/** Shown instead of the app when the build has no Convex deployment address. */
export function ConfigurationError({ detail }: { detail?: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-background p-6">
      <div role="alert" className="w-full max-w-lg space-y-4 rounded-xl border bg-card p-8 shadow-sm">
        <Logo />
        <h1 className="text-xl font-semibold">ModelJury is not configured</h1>
        <p className="text-sm text-muted-foreground">
          The app does not know which Convex deployment to talk to. Set{" "}
          <code className="font-mono">VITE_CONVEX_URL</code> (for example in{" "}
          <code className="font-mono">.env.local</code>, which <code className="font-mono">npx convex dev</code> writes
          for you, or by running <code className="font-mono">npm start</code> for the offline stack) and start the app
          again.
        </p>
        {detail && (
          <pre className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap">{detail}</pre>
        )}
      </div>
    </div>
  );
}
