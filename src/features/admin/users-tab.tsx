import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { ShieldCheckIcon, ShieldOffIcon, Trash2Icon, UsersIcon } from "lucide-react";
import { useState } from "react";

import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/empty-state";
import { Money } from "@/components/money";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";

import { ADMIN_FAILURES, runAdminAction } from "./admin-actions";
import { countLabel, formatLastLogin, matchesUserSearch } from "./admin-format";
import { useConfirm } from "@/components/confirm-dialog";
import { formatMediumDate } from "@/lib/dates";

type AdminUser = FunctionReturnType<typeof api.admin.listUsers>["users"][number];

export const USER_CONFIRMATIONS = {
  grant: "Are you sure you want to grant admin access for this user?",
  remove: "Are you sure you want to remove admin access for this user?",
  delete:
    "This deletes the account with its tests, personas, topics, templates, shares, API keys and sign-in sessions. Payment and credit records are kept.",
} as const;

export function UsersTab({ viewerId }: { viewerId: string }) {
  const data = useQuery(api.admin.listUsers, {});
  const setAdmin = useMutation(api.admin.setAdmin);
  const deleteUser = useMutation(api.admin.deleteUser);
  const [search, setSearch] = useState("");
  const { ask, dialog } = useConfirm();

  const users = data?.users.filter((user) => matchesUserSearch(user, search)) ?? [];

  function toggleAdmin(user: AdminUser) {
    const granting = !user.isAdmin;
    ask({
      title: granting ? "Make Admin" : "Remove Admin",
      description: granting ? USER_CONFIRMATIONS.grant : USER_CONFIRMATIONS.remove,
      subject: user.email,
      confirmText: granting ? "Make Admin" : "Remove Admin",
      destructive: !granting,
      onConfirm: async () => {
        await runAdminAction(
          () => setAdmin({ userId: user._id, isAdmin: granting }),
          ADMIN_FAILURES.adminStatus,
          granting ? `${user.email} is now an admin.` : `${user.email} is no longer an admin.`,
        );
      },
    });
  }

  function remove(user: AdminUser) {
    ask({
      title: "Delete User",
      description: USER_CONFIRMATIONS.delete,
      subject: user.email,
      confirmText: "Delete User",
      destructive: true,
      irreversible: true,
      onConfirm: async () => {
        await runAdminAction(
          () => deleteUser({ userId: user._id }),
          ADMIN_FAILURES.deleteUser,
          `${user.email} was deleted.`,
        );
      },
    });
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchInput
          className="w-full sm:max-w-sm"
          type="search"
          label="Search users"
          value={search}
          onSearch={setSearch}
        />
        {data && (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {countLabel(users.length, Math.max(data.total, data.users.length), "users")}
          </p>
        )}
      </div>

      {data === undefined ? (
        <TableSkeleton />
      ) : users.length === 0 ? (
        <EmptyState
          icon={UsersIcon}
          title={data.users.length === 0 ? "No users yet" : "No users found"}
          description={data.users.length === 0 ? undefined : "No user matches your search."}
        />
      ) : (
        <div className="rounded-lg border">
          <Table aria-label="Users">
            <TableHeader>
              <TableRow>
                <TableHead>User</TableHead>
                <TableHead>Admin</TableHead>
                <TableHead className="text-right">Tests</TableHead>
                <TableHead className="text-right">Spent</TableHead>
                <TableHead>Joined</TableHead>
                <TableHead>Last Login</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {users.map((user) => (
                <UserRow
                  key={user._id}
                  user={user}
                  isSelf={user._id === (viewerId as Id<"users">)}
                  onToggleAdmin={() => toggleAdmin(user)}
                  onDelete={() => remove(user)}
                />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {dialog}
    </div>
  );
}

function UserRow({
  user,
  isSelf,
  onToggleAdmin,
  onDelete,
}: {
  user: AdminUser;
  isSelf: boolean;
  onToggleAdmin: () => void;
  onDelete: () => void;
}) {
  return (
    <TableRow>
      <TableCell>
        <div className="font-medium">
          {user.email || "No email"}
          {isSelf && <span className="ml-2 text-xs text-muted-foreground">(you)</span>}
        </div>
        <div className="text-sm text-muted-foreground">{user.fullName ?? "No name"}</div>
      </TableCell>
      <TableCell>{user.isAdmin ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>}</TableCell>
      <TableCell className="text-right tabular-nums">{user.testCount}</TableCell>
      <TableCell className="text-right">
        <Money cents={user.totalSpentCents} />
      </TableCell>
      <TableCell className="whitespace-nowrap">{formatMediumDate(user._creationTime)}</TableCell>
      <TableCell className="whitespace-nowrap">{formatLastLogin(user.lastSignInAt)}</TableCell>
      <TableCell>
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" onClick={onToggleAdmin}>
            {user.isAdmin ? <ShieldOffIcon aria-hidden="true" /> : <ShieldCheckIcon aria-hidden="true" />}
            {user.isAdmin ? "Remove Admin" : "Make Admin"}
          </Button>
          {!isSelf && (
            <Button variant="ghost" size="icon" aria-label="Delete user" title="Delete user" onClick={onDelete}>
              <Trash2Icon aria-hidden="true" className="text-destructive" />
            </Button>
          )}
        </div>
      </TableCell>
    </TableRow>
  );
}

export function TableSkeleton({ label = "Loading" }: { label?: string }) {
  return (
    <div className="space-y-2 rounded-lg border p-4" aria-label={label} role="status">
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} className="h-10 w-full" />
      ))}
    </div>
  );
}
