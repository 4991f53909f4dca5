// enquirer's prompts as our prompts use them (enquirer-prompter.ts, show-prompt.ts): the few of
// its types we touch, the confirmation that needs Enter, the filtered list that does not paint
// the typed text, the filter's match, and the keys of a shell at a text prompt (Ctrl-U, Ctrl-D).

export interface EnquirerPrompt {
  cancel(err?: unknown): Promise<void>;
  input?: unknown;
  cursor?: number;
  /** What it drew last: once answered, the question and its answer. */
  state?: { buffer?: string };
}

export interface EnquirerInstance {
  on(event: 'prompt', fn: (prompt: EnquirerPrompt) => void): void;
  prompt(question: unknown): Promise<Record<string, unknown>>;
  register(type: string, prompt: unknown): void;
}

/** The type name of the list that typing filters. */
export const FILTERED = 'sitebuilder-filtered';
/** The type name of the confirmation that needs Enter. */
export const CONFIRM = 'sitebuilder-confirm';

export type AutoCompleteClass = new (...args: unknown[]) => { render(): Promise<void> };

interface InputPrompt {
  state: { status: string; submitted: boolean; cancelled: boolean };
  options: Record<string, unknown>;
  input: string;
  styles: { muted(s: string): string; submitted(s: string): string };
  separator(): Promise<string>;
  format(): Promise<string>;
}
export type InputClass = new (...args: unknown[]) => InputPrompt;

export const YES = /^y(es)?$/i;
export const ANSWER = /^(y(es)?|no?)?$/i;

/**
 * A confirmation read as a line, as gh asks: `? Start the restore? (y/N) ` takes y or n and
 * needs Enter (enquirer's own answers on the key, so the Enter typed after it answered the next
 * question); it shows what was typed, and echoes `Yes` or `No` once answered.
 */
export function strictConfirm(Input: InputClass): InputClass {
  return class extends Input {
    override async separator(): Promise<string> {
      if (this.state.status === 'pending') return this.styles.muted(String(this.options.yesNo));
      return super.separator();
    }

    override async format(): Promise<string> {
      if (!this.state.submitted || this.state.cancelled) return super.format();
      const typed = String(this.input ?? '').trim();
      const yes = typed === '' ? this.options.fallback === true : YES.test(typed);
      return this.styles.submitted(yes ? 'Yes' : 'No');
    }
  };
}

/**
 * enquirer's autocomplete paints the typed text in the choices with a RegExp made of it, which
 * throws on `(` or `[`, and shows no pointer: this one leaves the choices unpainted, with the pointer.
 */
export function plainAutoComplete(AutoComplete: AutoCompleteClass): AutoCompleteClass {
  const list = Object.getPrototypeOf(AutoComplete.prototype);
  return class extends AutoComplete {
    override render(): Promise<void> {
      return list.render.call(this);
    }

    /** The list's pointer: without colour, it is what shows which line Enter picks. */
    pointer(...args: unknown[]): string {
      return list.pointer.apply(this, args);
    }
  };
}

/** Every word typed appears in the choice's label, hint or search text, in any case. */
export function matches(input: string, choice: { message: string; hint?: string; search?: string }): boolean {
  const text = `${choice.message} ${choice.hint ?? ''} ${choice.search ?? ''}`.toLowerCase();
  return input
    .toLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word));
}

/**
 * Ctrl-U clears the line up to the cursor, as in a shell (enquirer binds it to an undo that a
 * text prompt does not have).
 */
export function clearLineOnCtrlU(p: EnquirerPrompt): void {
  const line = p as unknown as {
    input: string;
    cursor: number;
    choices?: unknown;
    render(): unknown;
    undo?: () => unknown;
  };
  if (typeof line.input === 'string' && !Array.isArray(line.choices))
    line.undo = () => {
      line.input = line.input.slice(line.cursor);
      line.cursor = 0;
      return line.render();
    };
}

/**
 * A prompt whose input readline has closed already (an empty line at Ctrl-D; Ctrl-C, which
 * readline answers by closing when nothing listens for SIGINT) ends without an error: enquirer's
 * stop, run on the prompt's close, pauses the input, which Node 24 refuses (ERR_USE_AFTER_CLOSE)
 * where Node 20 did nothing. Every cancel goes through here (tolerateClosedInput).
 */
function quietStop(shown: EnquirerPrompt): void {
  const p = shown as unknown as NodeJS.EventEmitter & { stop?: () => void };
  const stop = p.stop;
  if (typeof stop === 'function' && p.listeners('close').includes(stop)) {
    p.removeListener('close', stop);
    p.once('close', () => {
      try {
        stop.call(p);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ERR_USE_AFTER_CLOSE') throw err;
      }
    });
  }
}

/** Makes every cancel of the prompt (Ctrl-C, Esc, Ctrl-D, a signal) tolerate a closed input. */
export function tolerateClosedInput(shown: EnquirerPrompt): void {
  const cancel = shown.cancel.bind(shown);
  shown.cancel = (...args: unknown[]) => {
    quietStop(shown);
    return (cancel as (...a: unknown[]) => ReturnType<EnquirerPrompt['cancel']>)(...args);
  };
}

/** Ctrl-D: the prompt on the screen is cancelled, and its input closed without an error. */
export function endPrompt(shown: EnquirerPrompt): void {
  quietStop(shown);
  void shown.cancel();
}
