/** Whether the engine behind a runtime has loaded its model yet (what /health reports). */
export class EngineState {
  private state: { phase: "loading" } | { phase: "ready" } | { phase: "failed"; message: string } = { phase: "loading" };

  get ready(): boolean {
    return this.state.phase === "ready";
  }

  markReady(): void {
    this.state = { phase: "ready" };
  }

  markFailed(message: string): void {
    this.state = { phase: "failed", message };
  }

  health(): { status: 200 | 503; body: Record<string, string> } {
    switch (this.state.phase) {
      case "ready":
        return { status: 200, body: { status: "ok" } };
      case "loading":
        return { status: 503, body: { status: "loading", message: "The model is still loading." } };
      case "failed":
        return { status: 503, body: { status: "error", message: this.state.message } };
    }
  }
}
