// `{% form_for 'contact' %}…{% endform_for %}` and `{% form_for form: "contact", class: …, id: …,
// redirect: …, success_message: … %}` (decisions.md): the <form> posting to /cms/<handle>/submit with
// hidden redirect_url and success_message inputs, the honeypot input `website` when enabled, and the
// `form` object inside (form-drop.ts). The form's id is the tag's `id:`, else `form_<handle>` (the
// service adds random hex; a fixed id keeps the page cacheable), and its fields' ids derive from it.
import {
  Hash,
  type Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
} from "liquidjs";
import { parseBlockBody } from "../schema/templates/liquid.ts";
import { formDrop } from "./form-drop.ts";
import { escapeHtml } from "./html.ts";
import { renderScope } from "./render-scope.ts";

const HONEYPOT =
  '<div class="cms-hp" aria-hidden="true"><label>Website<input type="text" name="website" tabindex="-1" autocomplete="off"></label></div>';

export class FormFor extends Tag {
  private templates: Template[];
  private handle: string | undefined;
  private options: Hash;

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    const positional = /^\s*(['"])(.*?)\1\s*,?\s*([\s\S]*)$/.exec(token.args);
    this.handle = positional?.[2];
    this.options = new Hash(positional ? (positional[3] ?? "") : token.args);
    this.templates = parseBlockBody(token, remainTokens, parser, "form_for");
  }

  *render(
    ctx: Parameters<Tag["render"]>[0],
    emitter: Parameters<Tag["render"]>[1],
  ): Generator<unknown, void, unknown> {
    const options = (yield this.options.render(ctx)) as Record<string, unknown>;
    const handle = this.handle ?? String(options.form ?? "");
    const scope = renderScope();
    const form = scope.forms[handle];
    if (!form) {
      emitter.write(`<!-- form '${escapeHtml(handle)}' not found -->`);
      return;
    }
    const redirect = options.redirect ?? form.redirect_url;
    const message = options.success_message ?? form.success_message;
    const formId = String(options.id || `form_${handle}`);
    const attributes = [
      'method="post"',
      `action="/cms/${escapeHtml(handle)}/submit"`,
      'enctype="multipart/form-data"',
      `class="${escapeHtml(["cms-form", options.class].filter(Boolean).join(" "))}"`,
      `id="${escapeHtml(formId)}"`,
      // What the service's form script looks for; themes may style or hook on them too.
      'data-controller="collection-form" data-collection-form-target="form"',
    ];
    emitter.write(`<form ${attributes.join(" ")}>`);
    // Both inputs are always there (decisions.md), empty when unset: the submission then falls back to the
    // form's own redirect_url and success_message.
    emitter.write(`<input type="hidden" name="redirect_url" value="${escapeHtml(redirect ?? "")}">`);
    emitter.write(`<input type="hidden" name="success_message" value="${escapeHtml(message ?? "")}">`);
    if (form.honeypot_enabled) emitter.write(HONEYPOT);
    const state = scope.formState?.handle === handle ? scope.formState : undefined;
    ctx.push({ form: formDrop(formId, form, state) });
    try {
      yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
    } finally {
      ctx.pop();
    }
    emitter.write("</form>");
  }
}
