import { SquareIcon } from "lucide-react";
import { useState } from "react";

import { Spinner } from "@/components/spinner";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";

/**
 * Stop Test with a confirmation. `onStop` rejects to keep the dialog open (the caller shows
 * the error); while it runs the dialog cannot be dismissed.
 */
export function StopTestButton({ testName, onStop }: { testName: string; onStop: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const [stopping, setStopping] = useState(false);

  async function stop() {
    setStopping(true);
    try {
      await onStop();
      setOpen(false);
    } catch {
      // The caller has already told the user; the dialog stays so they can try again.
    } finally {
      setStopping(false);
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={(next) => !stopping && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">
          <SquareIcon /> Stop Test
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Stop this test?</AlertDialogTitle>
          <AlertDialogDescription>
            “{testName}” will be cancelled. Answers and scores already received are kept, no new model calls are made,
            and a stopped test cannot be resumed.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={stopping}>Keep Running</AlertDialogCancel>
          <AlertDialogAction
            disabled={stopping}
            className="bg-destructive text-white hover:bg-destructive/90"
            onClick={(event) => {
              // Closing waits for the server's answer.
              event.preventDefault();
              void stop();
            }}
          >
            {stopping ? <Spinner className="text-current" label="Stopping the test" /> : null}
            Yes, Stop Test
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
