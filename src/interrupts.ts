// Ctrl-C and the keys of a followed run, routed. By default core/run.ts aborts ctx.signal on the
// first Ctrl-C and exits 130 on the second. A command that needs finer control takes the presses
// over with handle() for a while (a followed run: Ctrl-C stops following, the run goes on). The
// keys typed while a run is followed in a terminal (io/keyguard.ts) are offered to handleKeys()
// first: Esc asks whether to cancel the run, and the key after it answers (commands/shared/run/follow.ts); a
// key nobody takes is text typed ahead. Tests fire presses and keys themselves.

export type InterruptHandler = () => void;

/** Takes a key typed while a run is followed (ESC for Esc, else the key's text); true when taken. */
export type KeyHandler = (key: string) => boolean;

/** Esc, as press() gets it. */
export const ESC = '\u001b';

export class Interrupts {
  private handlers: InterruptHandler[] = [];
  private keyHandlers: KeyHandler[] = [];

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

  /** Offers typed keys to `fn` until the returned function is called; the newest handler wins. */
  handleKeys(fn: KeyHandler): () => void {
    this.keyHandlers.push(fn);
    return () => {
      const i = this.keyHandlers.lastIndexOf(fn);
      if (i >= 0) this.keyHandlers.splice(i, 1);
    };
  }

  /** One key (ESC, or a key's text). True when a handler took it: it is then no typed-ahead text. */
  press(key: string): boolean {
    const h = this.keyHandlers[this.keyHandlers.length - 1];
    return h ? h(key) : false;
  }
}
