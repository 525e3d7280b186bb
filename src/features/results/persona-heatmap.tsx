import { formatScore } from "../../../convex/lib/format";
import { MAX_SCORE } from "../../../convex/lib/scoring";
import type { ResultsData } from "@/components/results/results-model";

/** Persona × model average scores as a table whose cells are shaded by score. */
export function PersonaHeatmap({ heatmap }: { heatmap: ResultsData["heatmap"] }) {
  if (heatmap.models.length === 0 || heatmap.personas.length === 0) return null;
  const cell = new Map(heatmap.cells.map((entry) => [`${entry.personaId}\u0000${entry.modelId}`, entry]));
  return (
    <div tabIndex={0} className="overflow-x-auto">
      <table
        className="w-full border-separate border-spacing-1 text-sm"
        aria-label="Average score by persona and model"
      >
        <thead>
          <tr>
            <th scope="col" className="px-2 py-1 text-left font-medium text-muted-foreground">
              Persona
            </th>
            {heatmap.models.map((model) => (
              <th key={model.id} scope="col" className="px-2 py-1 text-center font-medium">
                {model.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {heatmap.personas.map((persona) => (
            <tr key={persona.id}>
              <th scope="row" className="px-2 py-1 text-left font-medium whitespace-nowrap">
                {persona.name}
              </th>
              {heatmap.models.map((model) => {
                const entry = cell.get(`${persona.id}\u0000${model.id}`);
                const score = entry?.averageScore ?? null;
                const strength = score === null ? 0 : Math.max(0.08, Math.min(1, score / MAX_SCORE));
                return (
                  <td
                    key={model.id}
                    className="rounded-md px-2 py-2 text-center font-semibold tabular-nums"
                    style={
                      score === null
                        ? undefined
                        : {
                            background: `color-mix(in oklab, var(--chart-2) ${Math.round(strength * 85)}%, transparent)`,
                          }
                    }
                    data-testid="heatmap-cell"
                  >
                    {score === null ? <span className="text-muted-foreground">—</span> : formatScore(score)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
