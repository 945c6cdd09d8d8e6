// What clients may write on a webhook: where to send (http or https), which events, whether it is on.
import { z } from "zod";
import { builder } from "../builder.ts";
import { eventTypes } from "./events.ts";

const url = z
  .string()
  .max(2000, "must be at most 2000 characters")
  .regex(/^https?:\/\/[^\s/?#]+\S*$/i, "must be an http or https URL");
const known = new Set<string>([...eventTypes, "*"]);
const events = z
  .array(z.string())
  .min(1, 'must name at least one event, or be ["*"]')
  .max(eventTypes.length + 1, "has too many events")
  .superRefine((names, check) => {
    names.forEach((name, index) => {
      if (!known.has(name))
        check.addIssue({
          code: "custom",
          path: [index],
          message: `is not an event: use one of *, ${eventTypes.join(", ")}`,
        });
    });
  });
const description = z.string().max(500, "must be at most 500 characters").nullish();

const eventsDescription = `Event names (${eventTypes.join(", ")}), or ["*"] for all.`;

export const WebhookCreateInput = builder.inputType("WebhookCreateInput", {
  fields: (t) => ({
    url: t.string({ required: true, validate: url, description: "Where events are POSTed." }),
    events: t.stringList({ required: true, validate: events, description: eventsDescription }),
    enabled: t.boolean({ description: "Default true." }),
    description: t.string({ validate: description }),
  }),
});

export const WebhookUpdateInput = builder.inputType("WebhookUpdateInput", {
  fields: (t) => ({
    url: t.string({ validate: url }),
    events: t.stringList({ validate: events, description: eventsDescription }),
    enabled: t.boolean(),
    description: t.string({ validate: description, description: "null clears it." }),
  }),
});
