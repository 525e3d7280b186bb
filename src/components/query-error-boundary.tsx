import { Component, Fragment, type ReactNode } from "react";

interface Props {
  /** What to show instead of the children once they threw; `reset` mounts them again. */
  fallback: (error: unknown, reset: () => void) => ReactNode;
  children: ReactNode;
}

interface State {
  error: unknown;
  attempt: number;
}

/**
 * Convex's useQuery throws a failed query's error during render; this catches it for one
 * screen, so the rest of the app stays usable and 'Try Again' resubscribes from scratch.
 */
export class QueryErrorBoundary extends Component<Props, State> {
  state: State = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error("Unknown error") };
  }

  reset = () => this.setState((state) => ({ error: null, attempt: state.attempt + 1 }));

  render() {
    if (this.state.error) return this.props.fallback(this.state.error, this.reset);
    // A new key remounts the children, so their queries subscribe again.
    return <Fragment key={this.state.attempt}>{this.props.children}</Fragment>;
  }
}
