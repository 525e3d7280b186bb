import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "convex/react";
import { CheckIcon, CopyIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FormError } from "@/components/form-error";
import { emailField } from "@/features/auth/schemas";
import { errorMessage } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import {
  invitePath,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  TEAM_ROLES,
  teamNameProblem,
  type TeamRole,
} from "../../../convex/lib/teams";

const nameSchema = z.object({
  name: z.string().superRefine((value, context) => {
    const problem = teamNameProblem(value);
    if (problem !== null) context.addIssue({ code: "custom", message: problem });
  }),
});
type NameValues = z.infer<typeof nameSchema>;

/** A team name form: 'Create Team' on the Teams page, 'Rename' on a team's page. */
export function TeamNameForm({
  initialName = "",
  submitText,
  onSubmit,
}: {
  initialName?: string;
  submitText: string;
  /** Rejects with the server's refusal, which is shown under the form. */
  onSubmit: (name: string) => Promise<unknown>;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<NameValues>({ resolver: zodResolver(nameSchema), defaultValues: { name: initialName } });

  async function submit({ name }: NameValues) {
    setServerError(null);
    try {
      await onSubmit(name.trim());
      if (initialName === "") form.reset({ name: "" });
    } catch (error) {
      setServerError(errorMessage(error));
    }
  }

  const submitting = form.formState.isSubmitting;
  return (
    <Form {...form}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem className="flex-1">
                <FormLabel>Team name</FormLabel>
                <FormControl>
                  <Input placeholder="Acme Research" autoComplete="off" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <Button type="submit" disabled={submitting} className="sm:mt-[1.375rem]">
            {submitting && <Spinner className="text-current" label="Saving" />}
            {submitText}
          </Button>
        </div>
        <FormError message={serverError} />
      </form>
    </Form>
  );
}

export const selectClass = cn(
  "h-9 rounded-md border border-input bg-transparent px-3 text-base shadow-xs outline-none md:text-sm dark:bg-input/30",
  "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50",
);

/** A native role picker: light, and right on phones. */
export function RoleSelect({
  value,
  onChange,
  disabled,
  id,
  label,
}: {
  value: TeamRole;
  onChange: (role: TeamRole) => void;
  disabled?: boolean;
  id?: string;
  label?: string;
}) {
  return (
    <select
      id={id}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as TeamRole)}
      className={selectClass}
    >
      {TEAM_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </select>
  );
}

const inviteSchema = z.object({ email: emailField, role: z.enum(TEAM_ROLES) });
type InviteValues = z.infer<typeof inviteSchema>;

/** The full invitation link for this browser's site. */
export function inviteUrl(token: string): string {
  return `${window.location.origin}${invitePath(token)}`;
}

/** Invite by email with a role; the new link is shown to copy, emailed too when the deployment can. */
export function InviteForm({ teamId }: { teamId: Id<"teams"> }) {
  const invite = useMutation(api.teams.invite);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; token: string; emailed: boolean } | null>(null);
  const form = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: "", role: "member" },
  });

  async function submit(values: InviteValues) {
    setServerError(null);
    setSent(null);
    try {
      const email = values.email.trim().toLowerCase();
      const result = await invite({ teamId, email, role: values.role });
      setSent({ email, token: result.token, emailed: result.emailed });
      form.reset({ email: "", role: values.role });
    } catch (error) {
      setServerError(errorMessage(error));
    }
  }

  const submitting = form.formState.isSubmitting;
  return (
    <div className="grid gap-4">
      <Form {...form}>
        <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-3">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <FormField
              control={form.control}
              name="email"
              render={({ field }) => (
                <FormItem className="flex-1">
                  <FormLabel>Email</FormLabel>
                  <FormControl>
                    <Input type="email" autoComplete="off" placeholder="teammate@example.com" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="role"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Role</FormLabel>
                  <FormControl>
                    <RoleSelect value={field.value} onChange={field.onChange} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <Button type="submit" disabled={submitting} className="sm:mt-[1.375rem]">
              {submitting && <Spinner className="text-current" label="Inviting" />}
              Invite
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">{ROLE_DESCRIPTIONS[form.watch("role")]}</p>
          <FormError message={serverError} />
        </form>
      </Form>
      {sent && (
        <div className="grid gap-2 rounded-md border bg-muted/40 p-3" role="status">
          <p className="text-sm">
            {sent.emailed ? `We emailed an invitation to ${sent.email}.` : `Invitation created for ${sent.email}.`} Copy
            the link and send it to them yourself if you like. It works for 7 days, only for that email.
          </p>
          <CopyLink token={sent.token} id="new-invite-link" />
        </div>
      )}
    </div>
  );
}

const COPIED_MS = 2000;

/** The invitation link in a read-only field with a copy button. */
export function CopyLink({ token, id, compact = false }: { token: string; id: string; compact?: boolean }) {
  const [copied, setCopied] = useState(false);
  const link = inviteUrl(token);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      toast.error("Could not copy the link. Select it and copy it yourself.");
    }
  }

  const button = (
    <Button type="button" variant="outline" size={compact ? "sm" : "default"} onClick={() => void copy()}>
      {copied ? <CheckIcon /> : <CopyIcon />} {copied ? "Copied" : "Copy link"}
    </Button>
  );
  if (compact) return button;
  return (
    <div className="flex gap-2">
      <Label htmlFor={id} className="sr-only">
        Invitation link
      </Label>
      <Input id={id} readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
      {button}
    </div>
  );
}
