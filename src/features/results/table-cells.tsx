// The cells the jury's tables repeat: a column header (right-aligned over figures) and a figure.
import type { ComponentProps } from "react";

import { cn } from "@/lib/utils";

/** A column header; `numeric` aligns it right, over figures. */
export function HeaderCell({ numeric, className, ...props }: ComponentProps<"th"> & { numeric?: boolean }) {
  return <th scope="col" className={cn("px-3 py-2 font-medium", numeric && "text-right", className)} {...props} />;
}

/** A figure: right-aligned, with digits of equal width so columns line up. */
export function NumberCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-3 py-1.5 text-right tabular-nums", className)} {...props} />;
}
