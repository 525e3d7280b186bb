import { Component, Fragment, type ReactNode } from "react";

interface QueryBoundaryProps {
  /** Shown once the children threw (Convex's useQuery throws a failed query); `retry` remounts them. */
  fallback: (error: unknown, retry: () => void) => ReactNode;
  children: ReactNode;
}

interface QueryBoundaryState {
  error: unknown;
  attempt: number;
}

/** Keeps a failed query to its own section: the rest of the page stays usable. */
export class QueryBoundary extends Component<QueryBoundaryProps, QueryBoundaryState> {
  state: QueryBoundaryState = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<QueryBoundaryState> {
    return { error: error ?? new Error("Unknown error") };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  retry = () => this.setState((state) => ({ error: null, attempt: state.attempt + 1 }));

  render() {
    if (this.state.error) return this.props.fallback(this.state.error, this.retry);
    // A new key remounts the children, so their queries subscribe again.
    return <Fragment key={this.state.attempt}>{this.props.children}</Fragment>;
  }
}
