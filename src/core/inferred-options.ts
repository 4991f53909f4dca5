// The type run() receives, read from a definition's declared arguments and options as commander
// fills them in (program.ts): types only, nothing of it is in the bundle. The flags are read as
// commander reads them (its splitOptionFlags and camelcase):
//   '-l, --limit <n>'  limit?: string       '--all'        all?: true
//   '--no-follow'      follow: boolean      '--wait' and '--no-wait'   wait?: boolean
//   '--tag [name]'     tag?: string | true  '--path <p...>'             path?: string[]
// `choices` narrows a value to their union, `parse` gives its return type (a repeated flag folds
// through `previous`, so its type is what parse returns), and `default` makes the key always
// present. An argument is a string under its camelCased name (`required`: always there), and a
// variadic one a string[], empty when none is given.

/** What is read of an option (define.ts's OptionDefinition, as a shape). */
interface FlagShape {
  readonly flags: string;
  readonly choices?: readonly string[];
  readonly default?: unknown;
  readonly parse?: (value: string, previous: never) => unknown;
}

/** What is read of an argument (define.ts's ArgumentDefinition, as a shape). */
interface ArgShape {
  readonly name: string;
  readonly required?: boolean;
  readonly variadic?: boolean;
}

/** commander's camelcase(): `raw-field` → `rawField`. */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

type Replace<S extends string, From extends string> = S extends `${infer A}${From}${infer B}`
  ? `${A} ${Replace<B, From>}`
  : S;

/** The words of a flags string: commander splits on spaces, commas and bars. */
type Words<S extends string> = S extends `${infer Word} ${infer Rest}`
  ? [...(Word extends '' ? [] : [Word]), ...Words<Rest>]
  : S extends ''
    ? []
    : [S];

type FlagWords<F extends string> = Words<Replace<Replace<F, ','>, '|'>>;

type LongOf<W extends readonly string[]> = W extends [infer H extends string, ...infer R extends string[]]
  ? H extends `--${infer L}`
    ? L
    : LongOf<R>
  : never;

type ShortOf<W extends readonly string[]> = W extends [infer H extends string, ...infer R extends string[]]
  ? H extends `-${infer S}`
    ? S extends `-${string}`
      ? ShortOf<R>
      : S
    : ShortOf<R>
  : never;

/** `<x>` required, `[x]` optional, `...` variadic; none: a boolean flag. */
type ValueOf<W extends readonly string[]> = W extends [infer H extends string, ...infer R extends string[]]
  ? H extends `<${string}...>`
    ? 'variadic'
    : H extends `[${string}...]`
      ? 'variadic'
      : H extends `<${string}>`
        ? 'required'
        : H extends `[${string}]`
          ? 'optional'
          : ValueOf<R>
  : 'none';

/** The long flag without `--` (or the short one without `-`), `no-` kept. */
type RawName<F extends string> = [LongOf<FlagWords<F>>] extends [never] ? ShortOf<FlagWords<F>> : LongOf<FlagWords<F>>;

type IsNegated<F extends string> = RawName<F> extends `no-${string}` ? true : false;

/** The key an option's value is stored under. */
export type OptionKey<F extends string> = Camel<RawName<F> extends `no-${infer P}` ? P : RawName<F>>;

/** Whether the list also has the positive flag of a `--no-x` (then x starts undefined). */
type HasPositive<List extends readonly FlagShape[], Key extends string> = true extends {
  [I in keyof List]: List[I] extends FlagShape
    ? IsNegated<List[I]['flags']> extends false
      ? OptionKey<List[I]['flags']> extends Key
        ? true
        : false
      : false
    : false;
}[number]
  ? true
  : false;

type Choice<O extends FlagShape> = O extends { readonly choices: readonly (infer C)[] } ? C : string;

type Parsed<O extends FlagShape> = O extends { readonly parse: (...args: never[]) => infer R } ? R : never;

/** The value commander stores for one option when given (before its default). */
type GivenValue<O extends FlagShape, Kind = ValueOf<FlagWords<O['flags']>>> = O extends {
  readonly parse: (...args: never[]) => unknown;
}
  ? Kind extends 'optional'
    ? Parsed<O> | true
    : Parsed<O>
  : Kind extends 'none'
    ? IsNegated<O['flags']> extends true
      ? false
      : true
    : Kind extends 'required'
      ? Choice<O>
      : Kind extends 'optional'
        ? Choice<O> | true
        : Choice<O>[];

/** The value an option has when not given: its default; a lone `--no-x`, true; else none. */
type DefaultValue<O extends FlagShape, List extends readonly FlagShape[]> = O extends { readonly default: infer D }
  ? undefined extends D
    ? never
    : D
  : IsNegated<O['flags']> extends true
    ? HasPositive<List, OptionKey<O['flags']>> extends true
      ? never
      : true
    : never;

type Entry<O extends FlagShape, List extends readonly FlagShape[]> = {
  key: OptionKey<O['flags']>;
  value: GivenValue<O> | DefaultValue<O, List>;
  always: [DefaultValue<O, List>] extends [never] ? false : true;
};

type Entries<List extends readonly FlagShape[]> = {
  [I in keyof List]: List[I] extends FlagShape ? Entry<List[I], List> : never;
}[number];

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The options run() gets from a list of option definitions: one key a flag, `--x`/`--no-x` sharing one. */
export type FlagsOf<List extends readonly FlagShape[]> = Simplify<
  {
    [E in Entries<List> as E['always'] extends true ? E['key'] : never]: Extract<
      Entries<List>,
      { key: E['key'] }
    >['value'];
  } & {
    [E in Entries<List> as E['always'] extends true ? never : E['key']]?: Extract<
      Entries<List>,
      { key: E['key'] }
    >['value'];
  }
>;

type ArgValue<A extends ArgShape> = A extends { readonly variadic: true } ? string[] : string;

type AlwaysThere<A extends ArgShape> = A extends { readonly variadic: true }
  ? true
  : A extends { readonly required: true }
    ? true
    : false;

/** The positional arguments run() gets, under their camelCased names. */
export type ArgsOf<List extends readonly ArgShape[]> = Simplify<
  {
    [A in List[number] as AlwaysThere<A> extends true ? Camel<A['name']> : never]: ArgValue<A>;
  } & {
    [A in List[number] as AlwaysThere<A> extends true ? never : Camel<A['name']>]?: ArgValue<A>;
  }
>;

/** run()'s options: the declared options, then the arguments (which program.ts sets last). */
export type InferredOptions<Args extends readonly ArgShape[], Options extends readonly FlagShape[]> = Simplify<
  Omit<FlagsOf<Options>, keyof ArgsOf<Args>> & ArgsOf<Args>
>;
