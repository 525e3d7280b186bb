import { Link } from "@tanstack/react-router";
import { CopyIcon, GlobeIcon, LockIcon, PlayIcon, Trash2Icon } from "lucide-react";

import { Spinner } from "@/components/spinner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { templateCategoryLabel } from "../../../convex/lib/templates";
import { visibleTags, type TemplateView } from "./template-filter";

interface TemplateCardProps {
  template: TemplateView;
  variant: "own" | "public";
  busy?: boolean;
  onToggleVisibility?: () => void;
  onDelete?: () => void;
  onSaveCopy?: () => void;
}

function countLabel(count: number, word: string) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function TemplateCard({
  template,
  variant,
  busy = false,
  onToggleVisibility,
  onDelete,
  onSaveCopy,
}: TemplateCardProps) {
  const { shown, more } = visibleTags(template.tags);
  const data = template.templateData;
  return (
    <li className="list-none">
      <Card className="h-full gap-3 py-5" data-testid="template-card">
        <CardHeader className="px-5">
          <div className="flex items-start justify-between gap-2">
            <CardTitle className="min-w-0 leading-snug break-words">
              <h3>{template.name}</h3>
            </CardTitle>
            <Badge variant="secondary" className="shrink-0">
              {templateCategoryLabel(template.category)}
            </Badge>
          </div>
          <p className="line-clamp-3 text-sm break-words text-muted-foreground">{template.description}</p>
        </CardHeader>
        <CardContent className="space-y-3 px-5">
          <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
            <span>{countLabel(data.personas.length, "persona")}</span>
            <span aria-hidden="true">·</span>
            <span>{countLabel(data.topics.length, "topic")}</span>
            <span aria-hidden="true">·</span>
            <span>Used {countLabel(template.usageCount, "time")}</span>
            {variant === "own" && (
              <>
                <span aria-hidden="true">·</span>
                <span className="inline-flex items-center gap-1" data-testid="template-visibility">
                  {template.isPublic ? (
                    <GlobeIcon aria-hidden="true" className="size-3" />
                  ) : (
                    <LockIcon aria-hidden="true" className="size-3" />
                  )}
                  {template.isPublic ? "Public" : "Private"}
                </span>
              </>
            )}
          </p>
          {template.tags.length > 0 && (
            <ul className="flex flex-wrap gap-1" aria-label={`Tags of ${template.name}`}>
              {shown.map((tag) => (
                <li key={tag}>
                  <Badge variant="outline">{tag}</Badge>
                </li>
              ))}
              {more > 0 && (
                <li>
                  <Badge variant="outline" aria-label={`${more} more tags`}>
                    +{more}
                  </Badge>
                </li>
              )}
            </ul>
          )}
        </CardContent>
        <CardFooter className="mt-auto flex flex-wrap gap-2 px-5">
          <Button asChild size="sm">
            <Link
              to="/dashboard/setup"
              search={{ template: template._id }}
              aria-label={`${variant === "own" ? "Use" : "Use Template"} ${template.name}`}
            >
              <PlayIcon /> {variant === "own" ? "Use" : "Use Template"}
            </Link>
          </Button>
          {variant === "own" ? (
            <>
              <Button
                size="sm"
                variant="outline"
                disabled={busy}
                onClick={onToggleVisibility}
                aria-label={`${template.isPublic ? "Make Private" : "Make Public"}: ${template.name}`}
              >
                {busy ? (
                  <Spinner className="text-current" label="Saving" />
                ) : template.isPublic ? (
                  <LockIcon />
                ) : (
                  <GlobeIcon />
                )}
                {template.isPublic ? "Make Private" : "Make Public"}
              </Button>
              <Button
                size="icon-sm"
                variant="ghost"
                className="ml-auto text-destructive hover:text-destructive"
                aria-label={`Delete template ${template.name}`}
                onClick={onDelete}
              >
                <Trash2Icon />
              </Button>
            </>
          ) : (
            <Button
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={onSaveCopy}
              aria-label={`Save Copy of ${template.name}`}
            >
              {busy ? <Spinner className="text-current" label="Saving" /> : <CopyIcon />}
              Save Copy
            </Button>
          )}
        </CardFooter>
      </Card>
    </li>
  );
}
