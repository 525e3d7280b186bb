import { zodResolver } from "@hookform/resolvers/zod";
import { useAction, useMutation, useQuery } from "convex/react";
import { GaugeIcon, PlugZapIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/errors";
import { USAGE_SECTION_ID } from "@/lib/navigation";
import { api } from "../../../convex/_generated/api";
import { apiKeySchema, type ApiKeyForm } from "../../../convex/lib/forms";
import { Banner } from "@/components/banner";
import { formatDate } from "@/lib/dates";

export const OWN_KEY_NOT_CHARGED =
  "While a key is saved, your new tests run on it: the gateway bills your OpenRouter account directly and ModelJury does not charge you for those runs.";
export const KEY_STORAGE_UNAVAILABLE = "Own API keys can't be stored on this deployment.";

/** The "usage" section (spec part 1 §1 FAQ): the user's own OpenRouter key, never shown in full. */
export function ApiKeySection() {
  const status = useQuery(api.apiKeys.status);
  const save = useAction(api.apiKeys.save);
  const check = useAction(api.apiKeys.check);
  const remove = useMutation(api.apiKeys.remove);
  // The schema apiKeys.save parses with (convex/lib/forms); the gateway's verdict shows under the field too.
  const form = useForm<ApiKeyForm>({ resolver: zodResolver(apiKeySchema), defaultValues: { key: "" } });
  const [pending, setPending] = useState<"save" | "test" | "remove" | null>(null);
  const [testResult, setTestResult] = useState<{ ok: boolean; message: string } | null>(null);

  async function submit(values: ApiKeyForm) {
    setTestResult(null);
    setPending("save");
    try {
      await save(values);
      form.reset({ key: "" });
      toast.success("API key saved");
    } catch (error) {
      form.setError("key", { message: errorMessage(error) });
    } finally {
      setPending(null);
    }
  }

  async function runTest() {
    setPending("test");
    setTestResult(null);
    try {
      setTestResult(await check({}));
    } catch (error) {
      setTestResult({ ok: false, message: errorMessage(error) });
    } finally {
      setPending(null);
    }
  }

  async function removeKey() {
    setPending("remove");
    try {
      await remove({});
      setTestResult(null);
      toast.success("API key removed");
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(null);
    }
  }

  return (
    <Card id={USAGE_SECTION_ID} role="region" aria-labelledby="usage-heading">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <GaugeIcon aria-hidden="true" className="size-4 text-primary" />
          <h2 id="usage-heading">Usage</h2>
        </CardTitle>
        <CardDescription>Connect your own OpenRouter API key to run tests on your own gateway account.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <p className="rounded-md bg-muted/60 px-3 py-2 text-sm" data-testid="own-key-note">
          {OWN_KEY_NOT_CHARGED}
        </p>
        {status === undefined ? (
          <Skeleton className="h-20" />
        ) : (
          <>
            {!status.storageAvailable && (
              <Banner tone="error">
                {KEY_STORAGE_UNAVAILABLE} The server administrator has not set an encryption secret.
              </Banner>
            )}
            {status.key && (
              <div className="grid gap-3 rounded-lg border p-4">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div>
                    <p className="text-sm text-muted-foreground">Saved key</p>
                    <p className="font-mono text-sm" data-testid="masked-key">
                      {status.key.masked}
                    </p>
                    <p className="text-xs text-muted-foreground">Saved {formatDate(status.key.savedAt)}</p>
                  </div>
                  <div className="flex gap-2">
                    <Button variant="outline" size="sm" disabled={pending !== null} onClick={() => void runTest()}>
                      {pending === "test" ? <Spinner className="text-current" label="Testing key" /> : <PlugZapIcon />}
                      Test Key
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      className="text-destructive"
                      disabled={pending !== null}
                      onClick={() => void removeKey()}
                    >
                      {pending === "remove" ? (
                        <Spinner className="text-current" label="Removing key" />
                      ) : (
                        <Trash2Icon />
                      )}
                      Remove
                    </Button>
                  </div>
                </div>
                {testResult && (
                  <Banner tone={testResult.ok ? "success" : "error"}>
                    <span data-testid="key-test-result">{testResult.message}</span>
                  </Banner>
                )}
              </div>
            )}
            {status.storageAvailable && (
              <Form {...form}>
                <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="sm:max-w-md">
                  <FormField
                    control={form.control}
                    name="key"
                    render={({ field, fieldState }) => (
                      <FormItem>
                        <FormLabel>{status.key ? "Replace API key" : "OpenRouter API key"}</FormLabel>
                        <div className="flex gap-2">
                          <FormControl>
                            <Input
                              type="password"
                              autoComplete="off"
                              spellCheck={false}
                              placeholder="sk-or-v1-..."
                              {...field}
                            />
                          </FormControl>
                          <Button type="submit" disabled={pending !== null}>
                            {pending === "save" && (
                              <Spinner className="text-current" label="Checking key with the gateway" />
                            )}
                            Save Key
                          </Button>
                        </div>
                        {!fieldState.error && (
                          <FormDescription className="text-xs">
                            Checked with the gateway before it is saved; an invalid key is not saved. Stored encrypted.
                            Only the last 4 characters are ever shown again.
                          </FormDescription>
                        )}
                        <FormMessage />
                      </FormItem>
                    )}
                  />
                </form>
              </Form>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
