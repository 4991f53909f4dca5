// Ctrl-C, routed. By default core/run.ts aborts ctx.signal on the first press and exits 130 on the
// second. A command that needs finer control (chat: the first press cancels the run, the next
// detaches, and the prompt loop goes on after) takes the presses over with handle() for a
// while. Tests fire presses themselves.

export type InterruptHandler = () => void;

export class Interrupts {
  private handlers: InterruptHandler[] = [];

  /** Takes Ctrl-C over until the returned function is called; the newest handler wins. */
  handle(fn: InterruptHandler): () => void {
    this.handlers.push(fn);
    return () => {
      const i = this.handlers.lastIndexOf(fn);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  /** One Ctrl-C. True when a handler took it; false leaves it to the default behaviour. */
  fire(): boolean {
    const h = this.handlers[this.handlers.length - 1];
    if (!h) return false;
    h();
    return true;
  }

  get handled(): boolean {
    return this.handlers.length > 0;
  }
}
