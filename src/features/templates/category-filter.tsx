import { Button } from "@/components/ui/button";
import {
  TEMPLATE_CATEGORY_FILTERS,
  templateCategoryLabel,
  type TemplateCategoryFilter,
} from "../../../convex/lib/templates";

/** The category buttons of the template lists ('All', then every category); the chosen one is pressed. */
export function CategoryFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: TemplateCategoryFilter;
  onChange: (category: TemplateCategoryFilter) => void;
}) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-1">
      {TEMPLATE_CATEGORY_FILTERS.map((filter) => (
        <Button
          key={filter}
          type="button"
          size="sm"
          variant={value === filter ? "secondary" : "ghost"}
          aria-pressed={value === filter}
          onClick={() => onChange(filter)}
        >
          {templateCategoryLabel(filter)}
        </Button>
      ))}
    </div>
  );
}
