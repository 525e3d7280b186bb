import { RefreshCwIcon, ShieldAlertIcon } from "lucide-react";
import { useState } from "react";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useViewer } from "@/hooks/use-viewer";

import { AdminErrorBoundary } from "./admin-error-boundary";
import { HealthTab } from "./health-tab";
import { JobsTab } from "./jobs-tab";
import { OverviewTab } from "./overview-tab";
import { ADMIN_TABS, type AdminTab } from "./search";
import { UsersTab } from "./users-tab";

const TAB_LABELS: Record<AdminTab, string> = {
  overview: "Overview",
  users: "Users",
  jobs: "Jobs",
  health: "System Health",
};

interface AdminPageProps {
  tab: AdminTab;
  onTabChange: (tab: AdminTab) => void;
}

/**
 * /admin. The profile's admin flag (read live) decides what shows; every admin query and
 * mutation checks it again on the server.
 */
export function AdminPage(props: AdminPageProps) {
  const viewer = useViewer();
  if (viewer === undefined) return <CheckingAccess />;
  if (!viewer?.isAdmin) return <AccessDenied />;
  return <AdminDashboard {...props} viewerId={viewer._id} />;
}

function CheckingAccess() {
  return (
    <div className="flex min-h-[50dvh] flex-col items-center justify-center gap-3">
      <Spinner className="size-8" label="Checking admin access" />
      <p className="text-muted-foreground">Checking admin access...</p>
    </div>
  );
}

function AccessDenied() {
  return (
    <div className="flex min-h-[50dvh] flex-col items-center justify-center gap-3 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-destructive/10">
        <ShieldAlertIcon className="size-7 text-destructive" aria-hidden="true" />
      </div>
      <h1 className="text-2xl font-bold">Access Denied</h1>
      <p className="text-muted-foreground">You don&apos;t have admin privileges to access this page.</p>
    </div>
  );
}

function AdminDashboard({ tab, onTabChange, viewerId }: AdminPageProps & { viewerId: string }) {
  // The data is live; Refresh mounts the tabs again so every query subscribes afresh.
  const [generation, setGeneration] = useState(0);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
          <p className="text-muted-foreground">System administration and monitoring</p>
        </div>
        <Button variant="outline" onClick={() => setGeneration((value) => value + 1)}>
          <RefreshCwIcon aria-hidden="true" /> Refresh
        </Button>
      </div>

      <Tabs value={tab} onValueChange={(value) => onTabChange(value as AdminTab)} className="gap-4">
        <TabsList className="w-full sm:w-fit">
          {ADMIN_TABS.map((value) => (
            <TabsTrigger key={value} value={value}>
              {TAB_LABELS[value]}
            </TabsTrigger>
          ))}
        </TabsList>
        <div key={generation}>
          <TabsContent value="overview">
            <AdminErrorBoundary title="Failed to load the overview">
              <OverviewTab onShowJobs={() => onTabChange("jobs")} />
            </AdminErrorBoundary>
          </TabsContent>
          <TabsContent value="users">
            <AdminErrorBoundary title="Failed to load users">
              <UsersTab viewerId={viewerId} />
            </AdminErrorBoundary>
          </TabsContent>
          <TabsContent value="jobs">
            <AdminErrorBoundary title="Failed to load jobs">
              <JobsTab />
            </AdminErrorBoundary>
          </TabsContent>
          <TabsContent value="health">
            <AdminErrorBoundary title="Failed to load system health">
              <HealthTab />
            </AdminErrorBoundary>
          </TabsContent>
        </div>
      </Tabs>
    </div>
  );
}
