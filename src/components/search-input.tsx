import { SearchIcon } from "lucide-react";
import type { ComponentProps } from "react";

import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";

type SearchInputProps = Omit<ComponentProps<typeof Input>, "onChange"> & {
  /** The box's accessible name; its placeholder too (with '...') unless one is given. */
  label: string;
  /** Called with the text as it is typed. */
  onSearch: (value: string) => void;
};

/**
 * A search box: the input with a magnifier icon inside it. `className` places the box (width,
 * flex); everything else goes to the input.
 */
export function SearchInput({ className, label, placeholder, onSearch, ...props }: SearchInputProps) {
  return (
    <div className={cn("relative", className)}>
      <SearchIcon
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        {...props}
        aria-label={label}
        placeholder={placeholder ?? `${label}...`}
        onChange={(event) => onSearch(event.target.value)}
        className="pl-9"
      />
    </div>
  );
}
