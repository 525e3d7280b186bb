import { Component, Fragment, type ReactNode } from "react";

import { ErrorState } from "@/components/error-state";
import { errorMessage } from "@/lib/errors";

interface Props {
  title: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  attempt: number;
}

/**
 * Convex's useQuery throws a failed query's error during render; this keeps the failure inside
 * one tab, and 'Try Again' mounts the tab again so its queries subscribe from scratch.
 */
export class AdminErrorBoundary extends Component<Props, State> {
  state: State = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error("Unknown error") };
  }

  reset = () => this.setState((state) => ({ error: null, attempt: state.attempt + 1 }));

  render() {
    if (this.state.error) {
      return <ErrorState title={this.props.title} message={errorMessage(this.state.error)} onRetry={this.reset} />;
    }
    return <Fragment key={this.state.attempt}>{this.props.children}</Fragment>;
  }
}
