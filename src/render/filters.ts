// The CMS filters beyond standard Liquid (decisions.md): `asset_url`, `image_tag`, `script_tag`,
// `stylesheet_tag` and `video_player`, with Shopify-like output. Named arguments
// (`image_tag: alt: "Logo", class: "hero"`) become attributes; every attribute value is HTML-escaped
// and asset paths are percent-encoded, so neither can break out of the markup.
import type { Context, FilterImplOptions, Liquid } from "liquidjs";
import { escapeHtml } from "./html.ts";
import { defaultPagination } from "./paginate-tag.ts";
import { checkSize, LOOKUP_ITEMS, pace } from "./render-guard.ts";
import { currentScope } from "./render-scope.ts";

type Attributes = [name: string, value: unknown][];

/** liquidjs hands named filter arguments over as `[name, value]` pairs. */
function namedArguments(args: unknown[]): Attributes {
  return args.filter(
    (arg): arg is [string, unknown] => Array.isArray(arg) && arg.length === 2 && typeof arg[0] === "string",
  );
}

const attributeName = /^[A-Za-z_:][-A-Za-z0-9_:.]*$/;

/** ` name="value"` for each attribute; `true` is a bare attribute, `false`/nil leave it out. */
function attributes(list: Attributes): string {
  const seen = new Set<string>();
  let out = "";
  for (const [name, value] of list) {
    const key = name.toLowerCase();
    if (!attributeName.test(name) || seen.has(key)) continue;
    seen.add(key);
    if (value === false || value === null || value === undefined) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`;
  }
  return out;
}

/** The URL of a value: a string, or an object with `url` (image and video fields, drops). */
function urlOf(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (value && typeof value === "object") {
    const { url, src } = value as Record<string, unknown>;
    if (typeof url === "string") return url.trim();
    if (typeof src === "string") return src.trim();
  }
  return "";
}

const absolute = /^(?:https?:)?\/\//i;
/** Characters that could end an attribute or a URL in markup. */
const unsafeInUrl = /["'<>`\s]/g;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * `logo.png`, `img/logo.png`, `/logo.png` and `/assets/img/logo.png` -> `/assets/img/logo.png`, each
 * segment percent-encoded once; http(s) and protocol-relative URLs are kept. A query or fragment stays.
 */
export function assetUrl(value: unknown): string {
  const url = urlOf(value);
  if (url === "") return "";
  if (absolute.test(url)) return url.replace(unsafeInUrl, encodeURIComponent);
  const [, path = "", suffix = ""] = /^([^?#]*)(.*)$/s.exec(url) ?? [];
  const segments = path
    .replace(/^\/+/, "")
    .replace(/^assets\//, "")
    .split("/")
    .filter((segment) => segment !== "" && segment !== "." && segment !== "..")
    .map((segment) => encodeURIComponent(decoded(segment)));
  return `/assets/${segments.join("/")}${suffix.replace(unsafeInUrl, encodeURIComponent)}`;
}

/** A tag's source: a site path outside /assets as it is, anything else through asset_url. */
function sourceOf(value: unknown): string {
  const url = urlOf(value);
  if (/^\/(?!\/)/.test(url) && !url.startsWith("/assets/"))
    return url.replace(unsafeInUrl, encodeURIComponent);
  return assetUrl(url);
}

/** The service's positional arguments (`image_tag: 'Hero', 'w-full'`): the plain values, in order. */
const positional = (args: unknown[]) => args.filter((arg) => !Array.isArray(arg));

/** `image_tag`, `image_tag: alt, class` (the service's), or named attributes (`alt: …, class: …`). */
export function imageTag(value: unknown, ...args: unknown[]): string {
  const named = namedArguments(args);
  const [altGiven, classGiven] = positional(args);
  const described = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const alt =
    named.find(([name]) => name === "alt")?.[1] ?? altGiven ?? described.alt ?? described.title ?? "";
  return `<img${attributes([["src", sourceOf(value)], ["alt", String(alt)], ...(classGiven ? [["class", classGiven] as [string, unknown]] : []), ...named])}>`;
}

/**
 * `script_tag` writes `type="module"` as on the service; `script_tag: 'default'` (or an empty type)
 * none, `script_tag: 'text/javascript'` that type; named arguments are attributes.
 */
export function scriptTag(value: unknown, ...args: unknown[]): string {
  const [type = "module"] = positional(args);
  const shown = type === "default" || type === "" || type === null ? null : String(type);
  const typed: Attributes = shown ? [["type", shown]] : [];
  return `<script${attributes([["src", sourceOf(value)], ...typed, ...namedArguments(args)])}></script>`;
}

/** `stylesheet_tag`, `stylesheet_tag: 'print'` (the service's media) or `media: 'print'`. */
export function stylesheetTag(value: unknown, ...args: unknown[]): string {
  const named = namedArguments(args);
  const media = named.find(([name]) => name === "media")?.[1] ?? positional(args)[0] ?? "all";
  return `<link${attributes([["href", sourceOf(value)], ["rel", "stylesheet"], ["type", "text/css"], ["media", media], ...named])}>`;
}

// The URL forms the service embeds (any host of YouTube's: www., m., music., -nocookie).
const youtube =
  /(?:youtube(?:-nocookie)?\.com\/(?:watch\?(?:.*&)?v=|embed\/|shorts\/|live\/|v\/|e\/)|youtu\.be\/)([\w-]{6,})/;
const vimeo = /vimeo\.com\/(?:video\/|channels\/[\w-]+\/|groups\/[\w-]+\/videos\/)?(\d+)/;
/** Options the filter reads itself, never attributes: the service's `thumbnail` is the poster. */
const ownOptions = ["controls", "poster", "thumbnail", "video_id"];
/** An embed's player takes these from its URL, not as attributes. */
const playerOptions = ["autoplay", "loop", "muted", ...ownOptions];
const videoTypes: Record<string, string> = {
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  ogv: "video/ogg",
  ogg: "video/ogg",
  mov: "video/quicktime",
};

/**
 * A YouTube or Vimeo URL (or a video field's {url, video_id, thumbnail}) as the provider's embed
 * iframe; a video file as `<video controls playsinline preload="metadata">` with one typed <source>.
 * Options: autoplay, loop, muted, controls (default true), poster (or the service's `thumbnail`), and any
 * other attribute.
 */
export function videoPlayer(value: unknown, ...args: unknown[]): string {
  const named = namedArguments(args);
  const url = urlOf(value);
  if (url === "") return "";
  const youtubeId = youtube.exec(url)?.[1];
  const vimeoId = youtubeId ? undefined : vimeo.exec(url)?.[1];
  if (youtubeId || vimeoId) {
    const embed = youtubeId
      ? `https://www.youtube-nocookie.com/embed/${encodeURIComponent(youtubeId)}`
      : `https://player.vimeo.com/video/${vimeoId}`;
    const iframeOptions = named.filter(([name]) => !playerOptions.includes(name));
    return `<iframe${attributes([
      ["src", embed],
      ["title", "Video"],
      ...iframeOptions,
      ["allow", "accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture"],
      ["allowfullscreen", true],
      ["loading", "lazy"],
    ])}></iframe>`;
  }
  const src = sourceOf(value);
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(src)?.[1]?.toLowerCase() ?? "";
  const thumbnail = value && typeof value === "object" ? (value as Record<string, unknown>).thumbnail : null;
  const poster =
    named.find(([name]) => name === "poster")?.[1] ??
    named.find(([name]) => name === "thumbnail")?.[1] ??
    thumbnail;
  const controls = named.find(([name]) => name === "controls")?.[1] ?? true;
  return (
    `<video${attributes([
      ["controls", controls !== false],
      ["playsinline", true],
      ["preload", "metadata"],
      ["poster", typeof poster === "string" && poster !== "" ? sourceOf(poster) : null],
      ...named.filter(([name]) => !ownOptions.includes(name)),
    ])}>` +
    `<source${attributes([
      ["src", src],
      ["type", videoTypes[extension] ?? null],
    ])}></video>`
  );
}

/** What a filter runs with (its context and token): liquidjs exports it only as the handler's `this`. */
type FilterImpl = ThisParameterType<Extract<FilterImplOptions, (...args: never[]) => unknown>>;

/**
 * Liquid's: an integer divided by an integer is rounded down (`{{ 10 | divided_by: 4 }}` is 2, a theme's
 * "min read"); liquidjs divides exactly unless told. JSON has one kind of number, so a whole number counts
 * as an integer here, unless the divisor is written as a float (`divided_by: 100.0`, Liquid's way to ask
 * for exact division), which liquidjs reads as the integer 100.
 */
function dividedBy(this: FilterImpl, dividend: unknown, divisor: unknown): number {
  const [a, b] = [Number(dividend), Number(divisor)];
  const written = this.token.args[0];
  const float = written !== undefined && !Array.isArray(written) && written.getText().includes(".");
  return Number.isInteger(a) && Number.isInteger(b) && b !== 0 && !float ? Math.floor(a / b) : a / b;
}

/** Ruby's strftime directives that liquidjs prints as they are, in directives it has. */
const rubyDirectives: Record<string, string> = {
  F: "%Y-%m-%d",
  T: "%H:%M:%S",
  D: "%m/%d/%y",
  R: "%H:%M",
  r: "%I:%M:%S %p",
  v: "%e-%^b-%Y",
  c: "%a %b %e %H:%M:%S %Y",
};

/** `date`'s format as the service's (Ruby's) strftime reads it: `%F`, `%T`, `%c`… */
function withRubyDateDirectives(engine: Liquid): void {
  const builtin = engine.filters.date;
  const handler = typeof builtin === "function" ? builtin : builtin?.handler;
  if (!handler) return;
  engine.registerFilter(
    "date",
    function (this: unknown, value: unknown, format: unknown, ...rest: unknown[]) {
      const translated =
        typeof format === "string"
          ? format.replace(/%([%FTDRrvc])/g, (whole, directive: string) => rubyDirectives[directive] ?? whole)
          : format;
      return handler.call(this as never, value, translated, ...rest);
    },
  );
}

export function registerCmsFilters(engine: Liquid): void {
  engine.registerFilter("asset_url", assetUrl);
  engine.registerFilter("image_tag", imageTag);
  engine.registerFilter("script_tag", scriptTag);
  engine.registerFilter("stylesheet_tag", stylesheetTag);
  engine.registerFilter("video_player", videoPlayer);
  engine.registerFilter("default_pagination", defaultPagination);
  engine.registerFilter("divided_by", dividedBy);
  withRubyDateDirectives(engine);
  noteClockReads(engine);
  for (const [name, filter] of Object.entries(engine.filters))
    engine.registerFilter(name, paced(name, filter));
}

/** Filters that read a property or evaluate an expression for each element: far dearer per element. */
const perElement = /^(where|reject|group_by|has|find|find_index|sum|map)(_exp)?$/;
/** Sorting reads a property per element only when given one. */
const byProperty = (name: string, args: unknown[]) =>
  (name === "sort" || name === "sort_natural") && args[1] !== undefined;

/**
 * Every filter, the CMS's and Liquid's own, runs paced (render-guard.ts): past the page's deadline it
 * throws, a value too large for it is refused before it starts, and so is one it made too large.
 */
function paced(name: string, filter: FilterImplOptions): FilterImplOptions {
  const handler = typeof filter === "function" ? filter : filter.handler;
  const raw = typeof filter === "function" ? false : filter.raw === true;
  const perItem = perElement.test(name);
  function* guarded(this: { context: Context }, ...args: unknown[]): Generator<unknown, unknown, unknown> {
    yield pace(this.context);
    checkSize(args, `filter ${name}`, perItem || byProperty(name, args) ? LOOKUP_ITEMS : undefined);
    const result = yield handler.apply(this as never, args as never);
    checkSize([result], `filter ${name}`);
    return result;
  }
  return raw ? { raw, handler: guarded as never } : (guarded as never);
}

/** Liquid's date filters read the clock for "now" and "today"; `sample` picks at random. Only they vary. */
const dateFilters = ["date", "date_to_xmlschema", "date_to_rfc822", "date_to_string", "date_to_long_string"];
const varies = (name: string, value: unknown) =>
  name === "sample" || (dateFilters.includes(name) && (value === "now" || value === "today"));

/**
 * A page whose output changes from one render to the next is not kept (index.ts keeps rendered pages
 * until the data changes): these filters mark the render when they read the clock or pick at random.
 */
function noteClockReads(engine: Liquid): void {
  for (const name of [...dateFilters, "sample"]) {
    const builtin = engine.filters[name];
    const handler = typeof builtin === "function" ? builtin : builtin?.handler;
    if (!handler) continue;
    engine.registerFilter(name, function (this: unknown, value: unknown, ...args: unknown[]) {
      const scope = currentScope();
      if (scope && varies(name, value)) scope.varies = true;
      return handler.call(this as never, value, ...args);
    });
  }
}
