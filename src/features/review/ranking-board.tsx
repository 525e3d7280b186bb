// Ranking a pair's answers, best first: drag an answer by its handle, or focus it and press
// Alt+↑/↓ (or its buttons) to move it one place, or a number key 1–9 to put it at that place.
// Only pointer dragging comes from @dnd-kit; the keyboard is handled here, so Enter stays
// "save and next" (dnd-kit's keyboard sensor would take it to pick an item up).
import { closestCenter, DndContext, PointerSensor, useSensor, useSensors, type DragEndEvent } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ArrowDownIcon, ArrowUpIcon, GripVerticalIcon } from "lucide-react";
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from "react";

import { Markdown } from "@/components/markdown";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

import { moveTo, type ReviewAnswer } from "./review-model";

export const RANKING_HELP =
  "Best first. Drag an answer by its handle, or focus it and press Alt+↑ or Alt+↓ to move it, or a number key to put it at that place.";

interface RankingBoardProps {
  answers: readonly ReviewAnswer[];
  order: readonly string[];
  onChange: (order: string[]) => void;
  /** False for a viewer: the answers are shown in the given order without controls. */
  editable: boolean;
}

export function RankingBoard({ answers, order, onChange, editable }: RankingBoardProps) {
  const byLabel = new Map(answers.map((answer) => [answer.label, answer]));
  const items = useRef(new Map<string, HTMLLIElement>());
  // The answer to keep focused after a move: React moves list items in the DOM, which can blur them.
  const [follow, setFollow] = useState<string | null>(null);
  useEffect(() => {
    if (follow === null) return;
    items.current.get(follow)?.focus();
    setFollow(null);
  }, [follow, order]);

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));

  const move = (label: string, to: number) => {
    const from = order.indexOf(label);
    if (from === -1 || to < 0 || to >= order.length || to === from) return;
    onChange(moveTo(order, from, to));
    setFollow(label);
  };

  const onItemKeyDown = (label: string) => (event: KeyboardEvent<HTMLLIElement>) => {
    if (event.target !== event.currentTarget) return; // keys inside the answer (a link, a button) are theirs
    const at = order.indexOf(label);
    if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      event.preventDefault();
      move(label, event.key === "ArrowUp" ? at - 1 : at + 1);
      return;
    }
    if (!event.altKey && !event.ctrlKey && !event.metaKey && /^[1-9]$/.test(event.key)) {
      event.preventDefault();
      move(label, Math.min(order.length, Number(event.key)) - 1);
    }
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = order.indexOf(String(active.id));
    const to = order.indexOf(String(over.id));
    if (from !== -1 && to !== -1) onChange(moveTo(order, from, to));
  };

  const list = (
    <ol className="space-y-3" aria-label="Your ranking, best first">
      {order.map((label, index) => {
        const answer = byLabel.get(label);
        if (!answer) return null;
        return (
          <RankedAnswer
            key={label}
            answer={answer}
            place={index + 1}
            count={order.length}
            editable={editable}
            itemRef={(node) => {
              if (node) items.current.set(label, node);
              else items.current.delete(label);
            }}
            onKeyDown={onItemKeyDown(label)}
            onMove={(direction) => move(label, index + direction)}
          />
        );
      })}
    </ol>
  );
  if (!editable) return list;
  return (
    <div className="space-y-2">
      <p id="ranking-help" className="text-xs text-muted-foreground">
        {RANKING_HELP}
      </p>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={[...order]} strategy={verticalListSortingStrategy}>
          {list}
        </SortableContext>
      </DndContext>
    </div>
  );
}

interface RankedAnswerProps {
  answer: ReviewAnswer;
  place: number;
  count: number;
  editable: boolean;
  itemRef: (node: HTMLLIElement | null) => void;
  onKeyDown: (event: KeyboardEvent<HTMLLIElement>) => void;
  onMove: (direction: -1 | 1) => void;
}

function RankedAnswer(props: RankedAnswerProps) {
  if (!props.editable) return <AnswerCard {...props} />;
  return <SortableAnswer {...props} />;
}

function SortableAnswer(props: RankedAnswerProps) {
  const { setNodeRef, setActivatorNodeRef, listeners, transform, transition, isDragging } = useSortable({
    id: props.answer.label,
  });
  return (
    <AnswerCard
      {...props}
      itemRef={(node) => {
        setNodeRef(node);
        props.itemRef(node);
      }}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      dragging={isDragging}
      handle={
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...listeners}
          tabIndex={-1}
          aria-hidden="true"
          className="cursor-grab touch-none rounded p-1 text-muted-foreground hover:bg-muted active:cursor-grabbing"
          title={`Drag answer ${props.answer.label}`}
        >
          <GripVerticalIcon className="size-4" />
        </button>
      }
    />
  );
}

function AnswerCard({
  answer,
  place,
  count,
  editable,
  itemRef,
  onKeyDown,
  onMove,
  style,
  dragging = false,
  handle,
}: RankedAnswerProps & { style?: CSSProperties; dragging?: boolean; handle?: ReactNode }) {
  return (
    <li
      ref={itemRef}
      style={style}
      tabIndex={editable ? 0 : undefined}
      onKeyDown={editable ? onKeyDown : undefined}
      aria-label={`Answer ${answer.label}, place ${place} of ${count}`}
      aria-describedby={editable ? "ranking-help" : undefined}
      data-testid="ranked-answer"
      data-label={answer.label}
      className={cn(
        "rounded-lg border bg-card outline-none focus-visible:ring-2 focus-visible:ring-ring",
        dragging && "relative z-10 shadow-lg",
      )}
    >
      <div className="flex items-center gap-2 border-b px-3 py-2">
        {handle}
        <span className="flex size-7 items-center justify-center rounded-full bg-primary text-xs font-bold text-primary-foreground tabular-nums">
          {place}
        </span>
        <span className="font-medium">Answer {answer.label}</span>
        {editable && (
          <div className="ml-auto flex gap-1">
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              disabled={place === 1}
              onClick={() => onMove(-1)}
              aria-label={`Move answer ${answer.label} up`}
            >
              <ArrowUpIcon />
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              disabled={place === count}
              onClick={() => onMove(1)}
              aria-label={`Move answer ${answer.label} down`}
            >
              <ArrowDownIcon />
            </Button>
          </div>
        )}
      </div>
      <div className="max-h-80 overflow-y-auto px-4 py-3">
        <Markdown>{answer.content}</Markdown>
      </div>
    </li>
  );
}
