import type { ReactElement, SVGProps } from "react";

// Icons drawn without lucide-react's runtime, for the code every page loads and for the landing
// page (its JavaScript budget is 60 KB gzipped): the runtime and one chunk per shared icon cost
// about 3 KB gzipped there. Path
// data from lucide-react 1.75.0 (ISC license). Everywhere else, import icons from lucide-react.

type IconNode = readonly (readonly ["path" | "circle" | "rect", Record<string, string>])[];
export type InlineIconProps = SVGProps<SVGSVGElement>;
export type InlineIcon = (props: InlineIconProps) => ReactElement;

/** An icon with lucide's look (24 grid, round 2 px strokes in the text colour); decorative unless labelled. */
export function inlineIcon(nodes: IconNode): InlineIcon {
  return function Icon(props) {
    const labelled =
      props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined || props.role !== undefined;
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={24}
        height={24}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden={labelled ? undefined : true}
        {...props}
      >
        {nodes.map(([Tag, attributes], index) => (
          <Tag key={index} {...attributes} />
        ))}
      </svg>
    );
  };
}

export const LoaderIcon = inlineIcon([["path", { d: "M21 12a9 9 0 1 1-6.219-8.56" }]]);
export const AlertTriangleIcon = inlineIcon([
  ["path", { d: "m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" }],
  ["path", { d: "M12 9v4" }],
  ["path", { d: "M12 17h.01" }],
]);
export const HomeIcon = inlineIcon([
  ["path", { d: "M15 21v-8a1 1 0 0 0-1-1h-4a1 1 0 0 0-1 1v8" }],
  [
    "path",
    { d: "M3 10a2 2 0 0 1 .709-1.528l7-6a2 2 0 0 1 2.582 0l7 6A2 2 0 0 1 21 10v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" },
  ],
]);
export const RotateCcwIcon = inlineIcon([
  ["path", { d: "M3 12a9 9 0 1 0 9-9 9.75 9.75 0 0 0-6.74 2.74L3 8" }],
  ["path", { d: "M3 3v5h5" }],
]);
